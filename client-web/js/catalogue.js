// Generated from the rules, the tournament crate and the protocol by protocol/tests/catalogue.rs:
// do not edit. Regenerate with UPDATE_CATALOGUE=1 cargo test -p fipsen-protocol --test catalogue

/** What the server's crates say of the games, the tournaments and the protocol's timings. */
export const CATALOGUE = {
  "games": {
    "anseggerfips": {
      "deals": null,
      "deals_in_rules": true,
      "name": "Anseggerfips",
      "players": [
        4
      ],
      "rules": {
        "auction": "single_round",
        "cents": false,
        "deals": null,
        "durch": true,
        "dutt": "unused",
        "faces": "german",
        "first_lead": "forehand",
        "game": "anseggerfips",
        "loss_factor": 2,
        "min_bid": 2,
        "ruten_needs_rutenas": true,
        "ruten_unbid": true
      },
      "seats": 4
    },
    "duttfips": {
      "deals": null,
      "deals_in_rules": true,
      "name": "Duttfips",
      "players": [
        4
      ],
      "rules": {
        "cents": false,
        "deals": null,
        "durch": true,
        "faces": "german",
        "first_lead": "forehand",
        "game": "duttfips",
        "loss_factor": 2,
        "ruten_needs_rutenas": false,
        "ruten_unbid": true
      },
      "seats": 4
    },
    "grossenaspe": {
      "deals": null,
      "deals_in_rules": true,
      "name": "Großenaspe Fipsen",
      "players": [
        3,
        4,
        5
      ],
      "rules": {
        "cents": false,
        "deals": null,
        "first_lead": "forehand",
        "game": "grossenaspe",
        "kieker_show": "left_opponent",
        "loss_factor": 2,
        "min_bid": 1,
        "players": 4
      },
      "seats": 4
    },
    "prisdorf": {
      "deals": null,
      "deals_in_rules": true,
      "name": "Prisdorf Fipsen",
      "players": [
        3,
        4
      ],
      "rules": {
        "deals": null,
        "first_lead": "forehand",
        "game": "prisdorf",
        "kieker_show": "left_opponent",
        "kontra": false,
        "min_bid": 2,
        "players": 4
      },
      "seats": 4
    },
    "thedinghausen": {
      "deals": null,
      "deals_in_rules": false,
      "name": "Thedinghausen Fipsen",
      "players": [
        5
      ],
      "rules": {
        "fipsen": true,
        "game": "thedinghausen",
        "head_the_trick": false,
        "rounds": null
      },
      "seats": 5
    },
    "tippen": {
      "deals": null,
      "deals_in_rules": true,
      "name": "Tippen",
      "players": [
        3,
        4,
        5,
        6
      ],
      "rules": {
        "daus_card": "ace",
        "deals": null,
        "exchange_max": null,
        "game": "tippen",
        "hop_and_jump": false,
        "knocking": false,
        "max_bete": null,
        "max_pot": 1200,
        "players": 4,
        "preset": "modern_grupp",
        "robbing": false,
        "shoving": false,
        "sniffing": "off",
        "tipp_zwang": false
      },
      "seats": 4
    },
    "wippen": {
      "deals": 2,
      "deals_in_rules": false,
      "name": "Wippen",
      "players": [
        2,
        3,
        4
      ],
      "rules": {
        "deals": null,
        "game": "wippen",
        "keep_promise": true,
        "last_move_sweep": true,
        "max_group_piles": 4,
        "operators": [
          "+",
          "-",
          "*",
          "/"
        ],
        "players": 2,
        "sets": 1
      },
      "seats": 2
    }
  },
  "nudge_after_ms": 15000,
  "tippen": {
    "big_pack_from": 7,
    "presets": [
      {
        "hand": 3,
        "id": "drei_karten_1821",
        "options": [],
        "range": [
          3,
          6
        ]
      },
      {
        "hand": 6,
        "id": "loup_1821",
        "options": [],
        "range": [
          3,
          5
        ]
      },
      {
        "hand": 3,
        "id": "dreiblatt_1859",
        "options": [
          "sniffing",
          "robbing",
          "hop_and_jump",
          "daus_card"
        ],
        "range": [
          2,
          10
        ],
        "sniffing": "alvensleben"
      },
      {
        "hand": 3,
        "id": "meyers_1905",
        "options": [],
        "range": [
          2,
          10
        ]
      },
      {
        "hand": 3,
        "id": "modern_grupp",
        "options": [
          "tipp_zwang",
          "shoving",
          "knocking",
          "sniffing"
        ],
        "range": [
          3,
          6
        ],
        "sniffing": "grupp"
      },
      {
        "hand": 3,
        "id": "modern_katira",
        "options": [
          "tipp_zwang",
          "shoving",
          "knocking",
          "sniffing"
        ],
        "range": [
          3,
          6
        ],
        "sniffing": "grupp"
      },
      {
        "hand": 4,
        "id": "vierblatt",
        "options": [
          "daus_card",
          "exchange_max"
        ],
        "range": [
          3,
          10
        ]
      }
    ]
  },
  "tournament": {
    "max_entrants": 128,
    "max_rounds": 10,
    "preset": {
      "duplicate": false,
      "game": "prisdorf",
      "listed": false,
      "max_short_tables": 3,
      "name": "",
      "organiser_plays": true,
      "reseating": "by_standings",
      "rounds": 1,
      "tables": [
        {
          "deals": 100,
          "rules": {
            "deals": 100,
            "first_lead": "forehand",
            "game": "prisdorf",
            "kieker_show": "left_opponent",
            "kontra": false,
            "min_bid": 2,
            "players": 4
          },
          "seats": 4
        },
        {
          "deals": 120,
          "rules": {
            "deals": 120,
            "first_lead": "forehand",
            "game": "prisdorf",
            "kieker_show": "left_opponent",
            "kontra": false,
            "min_bid": 2,
            "players": 3
          },
          "seats": 3
        }
      ]
    }
  }
};
