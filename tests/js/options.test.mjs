// The lobby's rules, on the server's own config: when an option matters, which values are refused
// together, and exactly what a new game sends.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { holds, optionsToSend, presetNames, presetValues, refused, relevant } from "../../src/cassino/web/static/options.js";
import { serverConfig } from "./support.mjs";

const config = serverConfig();
const option = (name) => config.options.find((o) => o.name === name);

describe("presets", () => {
  test("names in the server's order, each with its values", () => {
    assert.deepEqual(presetNames(config), ["classic", "royal", "spade", "draw"]);
    assert.equal(presetValues(config, "spade").target, 61);
    assert.equal(presetValues(config, "royal").tiebreak, "count_out");
    assert.equal(presetValues(config, "classic").royal, false);
  });
});

describe("conditions", () => {
  test("needs, needs_not and needs_sides each hold or not", () => {
    const values = { royal: true, scoring: "standard" };
    assert.equal(holds({}, values, 2), true);
    assert.equal(holds({ needs: { royal: true } }, values, 2), true);
    assert.equal(holds({ needs: { royal: false } }, values, 2), false);
    assert.equal(holds({ needs_not: { scoring: "spade" } }, values, 2), true);
    assert.equal(holds({ needs_not: { scoring: "standard" } }, values, 2), false);
    assert.equal(holds({ needs_sides: 2 }, values, 2), true);
    assert.equal(holds({ needs_sides: 2 }, values, 3), false);
  });

  test("the high ace matters only in Royal, court captures only outside it", () => {
    const classic = presetValues(config, "classic");
    const royal = presetValues(config, "royal");
    assert.equal(relevant(option("royal_ace_high"), classic, 2), false);
    assert.equal(relevant(option("royal_ace_high"), royal, 2), true);
    assert.equal(relevant(option("court_capture"), classic, 2), true);
    assert.equal(relevant(option("court_capture"), royal, 2), false);
  });

  test("cancelling sweeps needs sweeps and two sides", () => {
    const classic = presetValues(config, "classic");
    assert.equal(relevant(option("sweeps_cancel"), classic, 2), true);
    assert.equal(relevant(option("sweeps_cancel"), classic, 3), false);
    assert.equal(relevant(option("sweeps_cancel"), { ...classic, sweeps: false }, 2), false);
  });

  test("count-out is refused with spade scoring; cancelling sweeps with three sides", () => {
    const royal = presetValues(config, "royal");
    assert.equal(refused(option("tiebreak"), "count_out", royal, 2), false);
    assert.equal(refused(option("tiebreak"), "count_out", { ...royal, scoring: "spade" }, 2), true);
    assert.equal(refused(option("tiebreak"), "higher_total", { ...royal, scoring: "spade" }, 2), false);
    assert.equal(refused(option("sweeps_cancel"), true, royal, 3), true);
    assert.equal(refused(option("sweeps_cancel"), true, royal, 2), false);
  });
});

describe("what a new game sends", () => {
  test("nothing for a preset as it is", () => {
    for (const p of presetNames(config)) assert.deepEqual(optionsToSend(config, p, presetValues(config, p), 2), {}, p);
  });

  test("each option changed that matters", () => {
    const values = { ...presetValues(config, "classic"), target: 31, trail_restriction: "no_rank_match", sweeps: false };
    assert.deepEqual(optionsToSend(config, "classic", values, 2), { sweeps: false, trail_restriction: "no_rank_match", target: 31 });
  });

  test("a change where it does not matter is not sent", () => {
    const values = { ...presetValues(config, "classic"), royal_ace_high: false, sweeps_cancel: true };
    assert.deepEqual(optionsToSend(config, "classic", values, 3), {});
  });

  test("a preset value that clashes with the rest goes as the plain default", () => {
    const values = { ...presetValues(config, "royal"), scoring: "spade" };
    assert.deepEqual(optionsToSend(config, "royal", values, 2), { scoring: "spade", tiebreak: "higher_total" });
  });
});
