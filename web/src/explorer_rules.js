// The explorer's rules (issue 30): the switch between real hardware's rules and the
// lesson's, the engine whose fitted efficiency prices under real rules, and the line above
// the figures that says which rules hold, in the module's words (the same line `gpusplit
// report` prints as its Assumptions). web/src/explorer.js imports it, and the page inlines
// both into one scope (scripts/single_page.mjs). It places what the module answers and
// decides no rule: which rules a GPU takes is gs_resolve's (csrc/read/resolve.c).

// The settings this part keeps in the page's address, with their defaults: '' takes the
// GPU's own rules (real for a catalogue GPU, the lesson's for the lesson's GPU), as
// `report` does with no --assume, and so does an address written before the switch; ''
// engine: every engine's runs pooled.
export const RULES_DEFAULTS = { rules: '', engine: '' };
const RULES_ASKED = { '': 'gpu', real: 'real', lesson: 'lesson' };
// The lesson's switches that real rules set themselves (cpc: a cache for each chat, and
// so on), by their names in the module's rules record (report's JSON names, fields.js's
// RULES): shown ticked and fixed while the rules hold them, and the person's own ticks kept
// for the lesson's rules.
const RULE_SWITCHES = { cpc: 'cache_per_chat', rcache: 'read_cache', heads: 'divide_heads', auto: 'nccl' };
// whether a switch holds: a boolean, or for nccl its rules' name ('auto': NCCL's own)
const holds = (rules, name) => rules[name] === true || rules[name] === 'auto';
// its own name for the lookup: the page's one scope holds explorer.js's `$` too
const rulesEl = (id) => document.getElementById(id);

// A value of the address that the switch does not offer is the default.
export const rulesValue = (value) => (Object.hasOwn(RULES_ASKED, value) ? value : RULES_DEFAULTS.rules);

export function fillEngines(select, engines) {
  select.replaceChildren(new Option('Every engine\'s runs pooled (the default)', ''), ...engines.map((e) => new Option(e, e)),
    new Option('The median engine', 'median'), new Option('None: the GPU\'s peaks', 'none'));
}

// Before plan(): the rules and the engine asked.
export function askRules(module, state) {
  module.useRules(RULES_ASKED[state.rules]);
  module.useEngine(state.engine);
}

// The lesson's switches as the person ticked them (after a refusal, or before a plan).
function ownSwitches(state, form) {
  for (const field of Object.keys(RULE_SWITCHES)) {
    form.elements[field].disabled = false;
    form.elements[field].checked = state[field] === '1';
  }
}

// After plan(): the rules that hold (plan()'s rules record) into the switch, the switches
// they set, the engine's line and the assumptions above the figures.
export function showRules(rules, state, form) {
  const real = rules.assume === 'real';
  form.elements.rules.value = real ? 'real' : 'lesson';
  for (const [field, name] of Object.entries(RULE_SWITCHES)) {
    const byRules = real && holds(rules, name);
    form.elements[field].disabled = byRules;
    form.elements[field].checked = byRules || state[field] === '1';
  }
  form.elements.engine.disabled = !real;
  rulesEl('engine-status').textContent = real
    ? `Achieved efficiency: ${rules.efficiency.from ?? 'none, the GPU\'s peaks'}.`
    : 'The lesson\'s rules price at the GPU\'s peaks: no engine\'s efficiency.';
  rulesEl('assumptions').textContent = `Assumptions: ${rules.assumptions}`;
}

// When nothing can be priced: no rules are said to hold.
export function clearRules(state, form) {
  ownSwitches(state, form);
  rulesEl('assumptions').textContent = '';
  rulesEl('engine-status').textContent = '';
}
