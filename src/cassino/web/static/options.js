// The lobby's rules, as the server's config describes them: the presets and their option values,
// when an option matters, which values the rules refuse together, and what a new game sends.
// Pure: the lobby reads its form and passes the values in.

import { t, has } from "./i18n.js";

const nameOf = (p) => (typeof p === "string" ? p : p.name);

/** The presets' names, in the server's order. */
export const presetNames = (config) => config.presets.map(nameOf);

/** A preset's value of every option. */
export const presetValues = (config, name) => config.presets.find((p) => nameOf(p) === name).options;

/** A preset's name in the page's language (the server's name where the catalogue has none). */
export const presetName = (p) => (has(`preset.${p}.name`) ? t(`preset.${p}.name`) : p);

/** A computer player's name in the page's language. */
export const playerName = (p) => (has(`player.${p}.name`) ? t(`player.${p}.name`) : p);

/** Do the server's conditions (needs, needs_not, needs_sides) hold for these rules and sides? */
export function holds(cond, values, sides) {
  for (const [k, v] of Object.entries(cond.needs || {})) if (values[k] !== v) return false;
  for (const [k, v] of Object.entries(cond.needs_not || {})) if (values[k] === v) return false;
  if (cond.needs_sides && sides !== cond.needs_sides) return false;
  return true;
}

/** Does an option change anything under these rules? (Its own needs are conditions like any.) */
export const relevant = (opt, values, sides) => holds(opt, values, sides);

/** Is an option's value one the rules refuse in this combination (e.g. count-out with spade scoring)? */
export const refused = (opt, value, values, sides) =>
  (opt.refused || []).some((r) => r.value === value && !holds(r.unless || {}, values, sides));

/** The options a new game sends: those that matter and differ from the preset's; one that changes
 * nothing here but whose preset value clashes with the rest is sent as its plain default. */
export function optionsToSend(config, preset, values, sides) {
  const base = presetValues(config, preset);
  const options = {};
  for (const opt of config.options) {
    if (!relevant(opt, values, sides)) {
      if (refused(opt, base[opt.name], values, sides)) options[opt.name] = opt.default;
      continue;
    }
    if (values[opt.name] !== base[opt.name]) options[opt.name] = values[opt.name];
  }
  return options;
}
