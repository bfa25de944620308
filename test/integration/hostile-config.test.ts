/**
 * Hostile values for every field of the widget configuration and for every attribute of the element (issue 3;
 * PROTOCOL.md section 2: every field is untrusted, a bad value falls back to its default and never escapes its slot).
 *
 * The reference service's dev switch (`PUT /v1/dev/agents/{id}/widget`, demo/service/README.md) serves configurations
 * that PATCH would refuse with 422. Every case is generated from the tables below: for each field of the full fixture
 * (SERVICE-INTERFACE.md 2.11) and each hostile value suited to it, the config is written, the real element is mounted
 * against the service, the panel is opened and the start button pressed (which opens the terms dialog), and the
 * observations are checked:
 * - the widget is not blank: the launcher (or, for an unusable agent-id/server-url/signed-url/widget_config, the error state);
 * - no exception reached the window;
 * - the value did not take effect: a refused value renders exactly what the same config without the field renders, at
 *   every stage; the theme tokens are the PROTOCOL.md defaults; nothing inside the shadow root is a script, style,
 *   iframe, object, embed, svg, math, link, meta, base, form or input other than the widget's own composer, and no
 *   element has an on* attribute, a style attribute, a javascript:/data: URL or any attribute that names evil.example;
 * - no request went to evil.example (resource timing: failed loads are recorded too, see the control case);
 * - a console message names the field (or attribute), and none echoes a 1 MB value.
 * Kinds of value: `refused` (must fall back, and be reported), `absent` (null: means "not set", falls back silently),
 * `ignored` (keys the widget does not read, such as `__proto__`: no effect, no report needed), `inert` (a valid string
 * holding markup: shown as text or sanitised, never live), `error` (the widget cannot start: error state, reported).
 */
import { expect, oneEvent } from '@open-wc/testing';
import { apiKey } from '/__service__.js';
import { captureConsole, itExcept, loadFixture, until } from '../helpers.js';
import { $, mountWidget, serviceUrl } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

type Kind = 'refused' | 'absent' | 'ignored' | 'inert' | 'error';
type Stage = 'closed' | 'open' | 'terms' | 'conversation';
/** A JSON text used as is (keeps `__proto__` as an own key, which a JS object literal cannot). */
class Raw {
  constructor(readonly json: string) {}
}
interface Case {
  /** What the value is, for the test title. */
  label: string;
  value: unknown;
  kind: Kind;
  /** Paths under `widget_config.` (or attribute names) the console must name; default: the field. */
  names?: string[];
  /** Text the shadow root must show at a stage (an inert value rendered as text). */
  shows?: [Stage, string];
}

const MB = 1024 * 1024;
/** A 1 MB string that starts with `prefix`. */
const huge = (prefix = ''): string => prefix + 'x'.repeat(MB);
const HUGE_LABEL = 'huge string (1 MB)';

// ---------------------------------------------------------------- hostile values

const CSS_INJECTIONS: Case[] = [
  { label: 'CSS injection "red; background: url(...)"', value: 'red; background: url(https://evil.example/x)', kind: 'refused' },
  { label: 'CSS injection "}</style><script>"', value: '}</style><script>alert(1)</script>', kind: 'refused' },
  { label: 'CSS injection "var(--x)"', value: 'var(--x)', kind: 'refused' },
  { label: 'CSS injection "expression(alert(1))"', value: 'expression(alert(1))', kind: 'refused' },
  { label: 'CSS injection "url(https://evil.example/c.png)"', value: 'url(https://evil.example/c.png)', kind: 'refused' },
];
const URL_VALUES: Case[] = [
  { label: 'javascript: URL', value: 'javascript:alert(1)', kind: 'refused' },
  { label: 'javascript: URL in mixed case with a space', value: ' JaVaScRiPt:alert(1)', kind: 'refused' },
  { label: 'data: URL', value: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', kind: 'refused' },
  { label: 'http://evil URL', value: 'http://evil.example/a.png', kind: 'refused' },
  { label: 'protocol-relative //evil URL', value: '//evil.example/a.png', kind: 'refused' },
  { label: 'https URL with credentials', value: 'https://user:pw@evil.example/a.png', kind: 'refused' },
];
/** Markup for fields shown as sanitised HTML (terms_html) or markdown (first_message): accepted, never live. */
const MARKUP: Case[] = [
  { label: 'markup: <script>', value: '<script>alert(1)</script><p>after script</p>', kind: 'inert', shows: ['terms', 'after script'] },
  { label: 'markup: <img onerror> from evil', value: '<img src="https://evil.example/x.png" onerror="alert(1)"><img src="/test/helpers.ts" onerror="alert(1)"><p>after img</p>', kind: 'inert', shows: ['terms', 'after img'] },
  { label: 'markup: <style> and style attribute', value: '<style>:host{display:none}*{display:none}</style><p style="position:fixed;inset:0;background:red">cover</p>', kind: 'inert', shows: ['terms', 'cover'] },
  { label: 'markup: <iframe>, <object>, <embed>', value: '<iframe src="https://evil.example/f"></iframe><object data="https://evil.example/o"></object><embed src="https://evil.example/e"><p>after frames</p>', kind: 'inert', shows: ['terms', 'after frames'] },
  { label: 'markup: <svg onload>, <math>', value: '<svg onload="alert(1)"><image href="https://evil.example/s.png"/></svg><math><mi xlink:href="javascript:alert(1)">m</mi></math><p>after svg</p>', kind: 'inert', shows: ['terms', 'after svg'] },
  { label: 'markup: <form> with <input>', value: '<form action="https://evil.example/steal"><input name="card"><button formaction="https://evil.example/">Pay</button></form><p>after form</p>', kind: 'inert', shows: ['terms', 'after form'] },
  { label: 'markup: javascript:/data:/evil links', value: '<p><a href="javascript:alert(1)">run</a> <a href="https://evil.example/">phish</a> <a href="data:text/html,x">data</a></p>', kind: 'inert', shows: ['terms', 'run phish data'] },
  { label: 'markup: <base>, <meta refresh>, <link>', value: '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/"><link rel="stylesheet" href="https://evil.example/s.css"><p>after head</p>', kind: 'inert', shows: ['terms', 'after head'] },
];
/** Markup in a plain label: bound as text, so the literal string shows. */
const LABEL_MARKUP = '<img src="https://evil.example/l.png" onerror="alert(1)"><script>alert(1)</script>';
const PROTO_KEYS = (inner: string): Raw => new Raw(`{"__proto__":${inner},"constructor":{"prototype":${inner}}}`);

const wrongTypes = {
  string: [
    { label: 'number for a string', value: 42, kind: 'refused' },
    { label: 'boolean for a string', value: true, kind: 'refused' },
    { label: 'object for a string', value: { toString: 'x' }, kind: 'refused' },
    { label: 'array for a string', value: ['<script>alert(1)</script>'], kind: 'refused' },
    { label: 'null', value: null, kind: 'absent' },
  ],
  boolean: [
    { label: 'string "true" for a boolean', value: 'true', kind: 'refused' },
    { label: 'string "false" for a boolean', value: 'false', kind: 'refused' },
    { label: 'number 1 for a boolean', value: 1, kind: 'refused' },
    { label: 'number 0 for a boolean', value: 0, kind: 'refused' },
    { label: 'object for a boolean', value: {}, kind: 'refused' },
    { label: 'array for a boolean', value: [true], kind: 'refused' },
    { label: 'null', value: null, kind: 'absent' },
  ],
  size: [
    { label: 'size -1', value: -1, kind: 'refused' },
    { label: 'size 1e9', value: 1e9, kind: 'refused' },
    { label: 'size as string "18"', value: '18', kind: 'refused' },
    { label: 'size as CSS injection', value: '18px; background: url(https://evil.example/x)', kind: 'refused' },
    { label: 'object for a number', value: {}, kind: 'refused' },
    { label: 'array for a number', value: [18], kind: 'refused' },
    { label: 'null', value: null, kind: 'absent' },
  ],
  object: [
    { label: 'string for an object', value: 'hostile', kind: 'refused' },
    { label: 'array for an object', value: [{ evil: true }], kind: 'refused' },
    { label: 'number for an object', value: 42, kind: 'refused' },
    { label: 'null', value: null, kind: 'absent' },
  ],
  array: [
    { label: 'string for an array', value: 'evil.example', kind: 'refused' },
    { label: 'object for an array', value: { 0: 'evil.example', length: 1 }, kind: 'refused' },
    { label: 'number for an array', value: 42, kind: 'refused' },
    { label: 'null', value: null, kind: 'absent' },
  ],
} satisfies Record<string, Case[]>;

const COLOR_FIELDS = ['bg_color', 'text_color', 'btn_color', 'btn_text_color', 'border_color', 'focus_color'];
const SIZE_FIELDS = ['border_radius', 'btn_radius'];
const URL_FIELDS = ['custom_avatar_path', 'override_link'];
const HTML_FIELDS = ['terms_html', 'first_message'];
const ENUM_FIELDS: Record<string, string> = { variant: 'full evil', placement: 'top-left panel', expandable: 'always evil', feedback_mode: 'end evil' };
const TEXT_FIELDS = ['action_text', 'start_call_text', 'end_call_text', 'expand_text', 'listening_text', 'speaking_text', 'shareable_page_text', 'terms_text', 'terms_key'];
const STYLE_COLORS = ['base', 'base_hover', 'base_active', 'base_border', 'base_subtle', 'base_primary', 'base_error', 'accent', 'accent_hover', 'accent_active', 'accent_border', 'accent_subtle', 'accent_primary'];
const STYLE_SIZES = ['overlay_padding', 'button_radius', 'input_radius', 'bubble_radius', 'sheet_radius', 'compact_sheet_radius', 'dropdown_sheet_radius'];

const all = (keys: string[], value: unknown): Record<string, unknown> => Object.fromEntries(keys.map((key) => [key, value]));
const paths = (field: string, keys: string[]): string[] => keys.map((key) => `${field}.${key}`);

/** The hostile values of one field of 2.11, by the field's name and the fixture value's type. */
function casesFor(field: string, sample: unknown, labels: string[]): Case[] {
  if (COLOR_FIELDS.includes(field)) {
    return [...CSS_INJECTIONS, { label: HUGE_LABEL, value: huge('red;'), kind: 'refused' }, ...wrongTypes.string.filter((c) => c.label !== 'boolean for a string')];
  }
  if (SIZE_FIELDS.includes(field)) return wrongTypes.size;
  if (URL_FIELDS.includes(field)) return [...URL_VALUES, { label: HUGE_LABEL, value: huge('https://example.com/'), kind: 'refused' }, ...wrongTypes.string];
  if (HTML_FIELDS.includes(field)) {
    // first_message shows as the greeting when the panel opens; terms_html in the terms dialog.
    const stage: Stage = field === 'first_message' ? 'open' : 'terms';
    return [
      ...MARKUP.map((c) => ({ ...c, shows: [stage, c.shows![1]] as [Stage, string] })),
      // terms_html is HTML, not markdown: there the markdown shows as typed; first_message renders it (links neutralised).
      {
        label: 'markdown: evil image and javascript: link', value: '![pic](https://evil.example/md.png) [run](javascript:alert(1)) [phish](https://evil.example/p) after md', kind: 'inert',
        shows: [stage, field === 'first_message' ? 'pic run phish after md' : 'after md'],
      },
      { label: HUGE_LABEL, value: huge('<script>alert(1)</script>'), kind: 'refused' },
      ...wrongTypes.string,
    ];
  }
  if (field in ENUM_FIELDS) {
    return [
      { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
      { label: `class injection "${ENUM_FIELDS[field]}"`, value: ENUM_FIELDS[field], kind: 'refused' },
      { label: 'prototype key "constructor"', value: 'constructor', kind: 'refused' },
      { label: 'prototype key "__proto__"', value: '__proto__', kind: 'refused' },
      { label: HUGE_LABEL, value: huge(), kind: 'refused' },
      ...wrongTypes.string.filter((c) => c.label !== 'boolean for a string'),
    ];
  }
  if (field === 'language') {
    return [
      { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
      { label: 'attribute injection', value: 'en" onmouseover="alert(1)', kind: 'refused' },
      { label: 'path', value: '../../etc/passwd', kind: 'refused' },
      { label: 'prototype key "constructor"', value: 'constructor', kind: 'refused' },
      { label: HUGE_LABEL, value: huge('en'), kind: 'refused' },
      ...wrongTypes.string,
    ];
  }
  if (TEXT_FIELDS.includes(field)) {
    const inert: Case = { label: 'markup in a text', value: LABEL_MARKUP, kind: 'inert' };
    if (field === 'action_text') inert.shows = ['closed', LABEL_MARKUP];
    if (field === 'terms_text') inert.shows = ['terms', LABEL_MARKUP];
    const extra: Case[] = field === 'terms_key' ? [{ label: 'prototype key "__proto__" as the storage key', value: '__proto__', kind: 'inert' }] : [];
    return [inert, ...extra, { label: HUGE_LABEL, value: huge(LABEL_MARKUP), kind: 'refused' }, ...wrongTypes.string];
  }
  switch (field) {
    case 'avatar':
      return [
        ...wrongTypes.object,
        ...['<script>alert(1)</script>', 'constructor', '__proto__', 42].map((type): Case => ({ label: `avatar.type ${JSON.stringify(type)}`, value: { type }, kind: 'refused', names: ['avatar.type'] })),
        ...[...CSS_INJECTIONS, { label: HUGE_LABEL, value: huge('red;'), kind: 'refused' }, { label: 'number', value: 42, kind: 'refused' }].map((c): Case => ({
          label: `both orb colours: ${c.label}`, value: { type: 'orb', color_1: c.value, color_2: c.value }, kind: 'refused', names: ['avatar.color_1', 'avatar.color_2'],
        })),
      ];
    case 'end_feedback':
      return [
        ...wrongTypes.object,
        ...['<script>alert(1)</script>', 'constructor', '__proto__', 42].map((type): Case => ({ label: `end_feedback.type ${JSON.stringify(type)}`, value: { type }, kind: 'refused', names: ['end_feedback.type'] })),
      ];
    case 'language_presets':
      return [
        ...wrongTypes.object,
        { label: 'prototype keys __proto__ / constructor', value: PROTO_KEYS('{"first_message":"Polluted","terms_html":"<script>alert(1)</script>"}'), kind: 'refused', names: ['language_presets.__proto__', 'language_presets.constructor'] },
        { label: 'a preset that is a string', value: { en: 'hostile' }, kind: 'refused', names: ['language_presets.en'] },
        { label: 'a key that is markup', value: { '<script>alert(1)</script>': { first_message: 'x' } }, kind: 'refused', names: ['language_presets.<script>alert(1)</script>'] },
        {
          label: 'wrong types inside the preset', value: { en: { first_message: 42, terms_html: ['x'], terms_text: {}, terms_key: true, text_contents: 'x' } }, kind: 'refused',
          names: paths('language_presets.en', ['first_message', 'terms_html', 'terms_text', 'terms_key', 'text_contents']),
        },
        { label: 'preset labels of the wrong type and 1 MB', value: { en: { text_contents: { main_label: 42, start_chat: huge() } } }, kind: 'refused', names: paths('language_presets.en.text_contents', ['main_label', 'start_chat']) },
        { label: 'preset first_message of 1 MB', value: { en: { first_message: huge('<script>alert(1)</script>') } }, kind: 'refused', names: ['language_presets.en.first_message'] },
        { label: 'preset first_message with markup', value: { en: { first_message: String(MARKUP[0]!.value) + String(MARKUP[1]!.value) } }, kind: 'inert', shows: ['open', 'after script'] },
        { label: 'preset terms_html with markup', value: { en: { terms_html: MARKUP.map((c) => String(c.value)).join('') } }, kind: 'inert', shows: ['terms', 'after form'] },
        { label: 'preset label with markup', value: { en: { text_contents: { main_label: LABEL_MARKUP } } }, kind: 'inert', shows: ['closed', LABEL_MARKUP] },
      ];
    case 'text_contents':
      return [
        ...wrongTypes.object,
        { label: 'prototype keys __proto__ / constructor', value: PROTO_KEYS('{"main_label":"Polluted","start_chat":"Polluted"}'), kind: 'ignored' },
        { label: 'every label a number', value: all(labels, 42), kind: 'refused', names: paths('text_contents', labels) },
        { label: 'every label an object', value: all(labels, { text: 'x' }), kind: 'refused', names: paths('text_contents', labels) },
        { label: 'every label an array', value: all(labels, ['x']), kind: 'refused', names: paths('text_contents', labels) },
        { label: 'labels of 1 MB', value: { main_label: huge(), start_chat: huge(), accept_terms: huge() }, kind: 'refused', names: paths('text_contents', ['main_label', 'start_chat', 'accept_terms']) },
        { label: 'every label markup', value: all(labels, LABEL_MARKUP), kind: 'inert', shows: ['closed', LABEL_MARKUP] },
      ];
    case 'styles':
      return [
        ...wrongTypes.object,
        { label: 'prototype keys __proto__ / constructor', value: PROTO_KEYS('{"accent":"rgb(255, 0, 0)","button_radius":3}'), kind: 'ignored' },
        ...[...CSS_INJECTIONS, { label: 'number', value: 42, kind: 'refused' }].map((c): Case => ({ label: `every colour: ${c.label}`, value: all(STYLE_COLORS, c.value), kind: 'refused', names: paths('styles', STYLE_COLORS) })),
        { label: `colours: ${HUGE_LABEL}`, value: { accent: huge('red;'), base: huge('red;') }, kind: 'refused', names: paths('styles', ['accent', 'base']) },
        ...wrongTypes.size.filter((c) => c.kind === 'refused').map((c): Case => ({ label: `every size: ${c.label}`, value: all(STYLE_SIZES, c.value), kind: 'refused', names: paths('styles', STYLE_SIZES) })),
      ];
    case 'supported_language_overrides':
      return [
        ...wrongTypes.array,
        {
          label: 'entries: markup, prototype keys, number, 1 MB, object', value: ['<script>alert(1)</script>', 'constructor', '__proto__', 42, huge('de'), { language: 'de' }], kind: 'refused',
          names: [0, 1, 2, 3, 4, 5].map((i) => `supported_language_overrides[${i}]`),
        },
      ];
    case 'markdown_link_allowed_hosts':
      return [
        ...wrongTypes.array,
        { label: 'entries that are strings, not {hostname}', value: ['evil.example', '*'], kind: 'refused', names: ['markdown_link_allowed_hosts[0]', 'markdown_link_allowed_hosts[1]'] },
        { label: 'hostname of the wrong type', value: [{ hostname: 42 }, { hostname: ['*'] }, { host: '*' }], kind: 'refused', names: [0, 1, 2].map((i) => `markdown_link_allowed_hosts[${i}]`) },
        { label: `hostname: ${HUGE_LABEL}`, value: [{ hostname: huge('evil.example') }], kind: 'refused', names: ['markdown_link_allowed_hosts[0]'] },
        { label: 'hostname "javascript:alert(1)"', value: [{ hostname: 'javascript:alert(1)' }], kind: 'refused', names: ['markdown_link_allowed_hosts[0]'] },
        { label: 'hostname with credentials', value: [{ hostname: 'https://user:pw@evil.example/' }], kind: 'refused', names: ['markdown_link_allowed_hosts[0]'] },
      ];
  }
  if (typeof sample === 'boolean') return wrongTypes.boolean;
  return [];
}

/** The one wrong-typed value of a field for the "every field wrong-typed at once" case. */
function wrongTypeFor(sample: unknown): unknown {
  if (typeof sample === 'boolean') return 'true';
  if (typeof sample === 'number') return '18';
  if (typeof sample === 'string') return 42;
  if (Array.isArray(sample)) return { 0: 'x' };
  return ['x'];
}

// ---------------------------------------------------------------- element bugs (skipped cases)

/**
 * Cases that fail because the element is wrong: they run as `it.skip`, titled with the reason. Key:
 * `<field, or attr:<name>> | <value label> | safe` (the "stays safe" test) or `... | named` (the console test).
 */
const ELEMENT_BUGS: Record<string, string> = {};
// (None open: the cases found here were fixed in src/ — prototype keys in enum fields, a non-object avatar, URL
// lengths, host entries, attribute names in warnings, conversation attributes, dynamic variable lengths, server-url.)

// ---------------------------------------------------------------- expectations

/** PROTOCOL.md section 2 defaults, as the `--_<token>` custom properties of the host compute. */
const DEFAULT_TOKENS: Record<string, string> = {
  base: '#ffffff', 'base-hover': '#f9fafb', 'base-active': '#f3f4f6', 'base-border': '#e5e7eb', 'base-subtle': '#6b7280',
  'base-primary': '#000000', 'base-error': '#ef4444', accent: '#000000', 'accent-hover': '#1f2937', 'accent-active': '#374151',
  'accent-border': '#4b5563', 'accent-subtle': '#6b7280', 'accent-primary': '#ffffff', focus: '#000000',
  'orb-color-1': '#2792dc', 'orb-color-2': '#9ce6e6', 'overlay-padding': '32px', 'button-radius': '18px', 'input-radius': '10px',
  'bubble-radius': '15px', 'sheet-radius': '24px', 'compact-sheet-radius': '30px', 'dropdown-sheet-radius': '16px',
};

/** The greeting of the base configs: links and an image to evil.example, which the default link policy must neutralise. */
const GREETING = 'Base greeting, {{customer_name}}. [phish](https://evil.example/phish) ![pic](https://evil.example/pic.png)';
const BASE: Record<string, unknown> = { terms_text: 'Base terms: the conversation is recorded.', first_message: GREETING };

/** The valid config a field's hostile value is laid into: terms (so the start button opens the terms dialog) and a greeting. */
function baseFor(field: string): Record<string, unknown> {
  // No other terms, so an inert terms_text shows in the dialog (a refused one leaves no terms: the start button is not pressed).
  if (field === 'terms_text') return { first_message: GREETING };
  // A picture avatar, so an accepted custom_avatar_path would render an <img>.
  if (field === 'custom_avatar_path') return { ...BASE, avatar: { type: 'image' } };
  // The language selector on, so an accepted language would add a <select>.
  if (field === 'supported_language_overrides' || field === 'language') return { ...BASE, language_selector: true, supported_language_overrides: field === 'language' ? ['de'] : undefined };
  return BASE;
}

// ---------------------------------------------------------------- observation

interface Observation {
  /** What the element shows right after it settled. */
  state: 'launcher' | 'panel' | 'error' | 'blank';
  /** Normalised shadow-root HTML by stage. */
  html: Partial<Record<Stage, string>>;
  text: Partial<Record<Stage, string>>;
  /** Forbidden nodes or attributes found at any stage. */
  findings: string[];
  tokens: Record<string, string>;
  /** Resource URLs with evil.example loaded while the case ran. */
  evil: string[];
  exceptions: string[];
  warnings: string[];
  errors: string[];
  /** The conversation initiation the widget sent, parsed (conversation cases). */
  initiation: Record<string, any> | null;
  /** Own keys added to Object.prototype while the case ran. */
  polluted: string[];
  /** A stage that could not be reached (timeout, missing control), or a throw of the test's own steps. */
  failure: string | null;
}

const exceptions: string[] = [];
const onError = (event: ErrorEvent): void => void exceptions.push(`${event.message} at ${event.filename}:${event.lineno}`);
const onRejection = (event: PromiseRejectionEvent): void => void exceptions.push(`unhandled rejection: ${String(event.reason)}`);
const evilSeen: string[] = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (/evil\.example/i.test(entry.name)) evilSeen.push(entry.name);
});
/** Frames the widget sends on its conversation sockets (the first one of a socket is the initiation). */
const frames: string[] = [];
const realSend = WebSocket.prototype.send;

// The widget's own icons (an svg as the only content of one of its buttons: the devices toggle before a call, the
// call's mute button) are not content from the configuration.
const FORBIDDEN = 'script, style, iframe, frame, object, embed, svg:not([part~="button"] > svg), math, link, meta, base, template, form:not([part~="composer"]), input:not([part~="input"]), [style]';
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'srcset']);

function scan(root: ShadowRoot, stage: Stage): string[] {
  const found: string[] = [];
  for (const node of root.querySelectorAll(FORBIDDEN)) found.push(`${stage}: <${node.localName}${node.hasAttribute('style') ? ' style' : ''}>`);
  if (root.querySelectorAll('form').length > 1 || root.querySelectorAll('input').length > 1) found.push(`${stage}: more than the composer's form/input`);
  for (const node of root.querySelectorAll('*')) {
    for (const { name, value } of node.attributes) {
      if (/^on/i.test(name)) found.push(`${stage}: <${node.localName} ${name}>`);
      // Text attributes (aria-label, placeholder) may hold a hostile label as text; URL attributes must not point anywhere hostile.
      if (URL_ATTRIBUTES.has(name) && /evil\.example|^\s*(javascript|data|vbscript):/i.test(value)) found.push(`${stage}: <${node.localName} ${name}="${value.slice(0, 80)}">`);
    }
    const background = getComputedStyle(node).backgroundImage;
    if (/url\(/i.test(background)) found.push(`${stage}: <${node.localName}> background-image ${background.slice(0, 80)}`);
  }
  for (const sheet of root.adoptedStyleSheets) {
    const css = [...sheet.cssRules].map((rule) => rule.cssText).join('');
    if (/evil\.example|expression\(|javascript:/i.test(css)) found.push(`${stage}: adopted stylesheet holds ${css.match(/.{0,40}(evil\.example|expression\(|javascript:).{0,40}/i)![0]}`);
  }
  return found;
}

const normalise = (html: string): string => html.replace(/<!--[^]*?-->/g, '').replace(/\s+/g, ' ').trim();

async function putWidget(agentId: string, json: string): Promise<void> {
  const response = await fetch(`${serviceUrl}/v1/dev/agents/${encodeURIComponent(agentId)}/widget`, {
    method: 'PUT', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: json,
  });
  if (response.status !== 200) throw new Error(`dev switch answered ${response.status} for ${agentId}`);
}

const withoutField = (base: Record<string, unknown>, field: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));

/** `base` with `field` set to `value` (a Raw value is spliced in as JSON text), as JSON text. */
function configJson(base: Record<string, unknown>, field: string | null, value: unknown): string {
  const rest = Object.fromEntries(Object.entries(base).filter(([key, v]) => key !== field && v !== undefined));
  if (field === null) return JSON.stringify(rest);
  const head = JSON.stringify(rest).slice(0, -1);
  const member = `${JSON.stringify(field)}:${value instanceof Raw ? value.json : JSON.stringify(value)}`;
  return `${head}${head === '{' ? '' : ','}${member}}`;
}

interface Steps {
  attributes?: Record<string, string>;
  /** Press the start button (opens the terms dialog); default true. */
  pressStart?: boolean;
  /** Accept the terms so the conversation starts, and keep the initiation frame. */
  converse?: boolean;
  /** Wait for the agent's first message after starting (its text, rendered). */
  awaitAgentMessage?: boolean;
}

/** Mounts the element for `agentId` (config already written) and drives it through the stages; never throws. */
async function observe(agentId: string, steps: Steps = {}): Promise<Observation> {
  const o: Observation = {
    state: 'blank', html: {}, text: {}, findings: [], tokens: {}, evil: [], exceptions: [], warnings: [], errors: [], initiation: null, polluted: [], failure: null,
  };
  const protoKeys = new Set(Object.getOwnPropertyNames(Object.prototype));
  const firstException = exceptions.length;
  const firstEvil = evilSeen.length;
  const firstFrame = frames.length;
  const started = performance.now();
  let el: VoiceAgentWidget | undefined;
  const record = (stage: Stage): void => {
    const root = el!.shadowRoot!;
    o.html[stage] = normalise(root.innerHTML);
    o.text[stage] = root.textContent!.replace(/\s+/g, ' ');
    o.findings.push(...scan(root, stage));
    if (el!.hasAttribute('style')) o.findings.push(`${stage}: the host has a style attribute`);
  };
  const { warnings, errors } = await captureConsole(async () => {
    try {
      el = await mountWidget(agentId, steps.attributes ?? {});
      const root = el.shadowRoot!;
      o.state = root.querySelector('[part~="error"]') ? 'error' : root.querySelector('[part~="panel"]') ? 'panel' : root.querySelector('[part~="launcher"]') ? 'launcher' : 'blank';
      record('closed');
      if (o.state === 'error' || o.state === 'blank') return;
      if (!root.querySelector('[part~="panel"]')) {
        $<HTMLButtonElement>(el, '[part~="launcher"]')!.click();
        await until(() => root.querySelector('[part~="panel"]') && !root.querySelector('.placeholder'), 'panel open', 2000);
        await el.updateComplete;
      }
      // The panel reads the microphone's permission once open (the devices toggle before a call shows where it is
      // granted): after that read, a task later, the panel is as it stays.
      await navigator.permissions.query({ name: 'microphone' as PermissionName }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve));
      await el.updateComplete;
      record('open');
      if (steps.pressStart === false) return;
      const start = $<HTMLButtonElement>(el, '[part~="start-button"]');
      if (!start) throw new Error('no start button in the open panel');
      start.click();
      await el.updateComplete;
      await until(() => root.querySelector('dialog[open]'), 'terms dialog open', 2000);
      record('terms');
      if (!steps.converse) return;
      $<HTMLButtonElement>(el, '[part~="accept-terms-button"]')!.click();
      await until(() => frames.length > firstFrame, 'initiation sent', 3000);
      o.initiation = JSON.parse(frames[firstFrame]!);
      if (steps.awaitAgentMessage) {
        await until(() => [...root.querySelectorAll('.message.agent')].some((m) => !m.classList.contains('greeting') && m.getAttribute('aria-busy') !== 'true'), 'agent first message', 3000);
      }
      await el.updateComplete;
      record('conversation');
    } catch (error) {
      o.failure = `${(error as Error).message} (after ${Math.round(performance.now() - started)} ms)`;
    }
  });
  if (el?.isConnected) {
    const style = getComputedStyle(el);
    for (const name of Object.keys(DEFAULT_TOKENS)) o.tokens[name] = style.getPropertyValue(`--_${name}`).trim();
    el.remove();
  }
  for (const entry of performance.getEntriesByType('resource')) if (/evil\.example/i.test(entry.name)) o.evil.push(entry.name);
  o.evil = [...new Set([...o.evil, ...evilSeen.slice(firstEvil)])];
  performance.clearResourceTimings();
  o.exceptions = exceptions.slice(firstException);
  o.warnings = warnings;
  o.errors = errors;
  o.polluted = Object.getOwnPropertyNames(Object.prototype).filter((key) => !protoKeys.has(key));
  return o;
}

// ---------------------------------------------------------------- assertions

/** The checks every case shares: not blank, nothing escaped, nothing live, no evil request, default theme. */
function expectSafe(o: Observation, kind: Kind, reference: Observation | undefined, shows?: [Stage, string]): void {
  expect(o.failure, 'every stage reached').to.equal(null);
  expect(o.exceptions, 'exceptions that reached the window').to.deep.equal([]);
  if (kind === 'error') {
    expect(o.state, 'the error state').to.equal('error');
    expect(o.html.closed, 'the error state says so').to.contain('role="alert"');
  } else {
    expect(o.state, 'a working widget: the launcher').to.equal('launcher');
  }
  expect(o.findings, 'forbidden nodes and attributes in the shadow root').to.deep.equal([]);
  expect(o.evil, 'requests to evil.example').to.deep.equal([]);
  expect(o.polluted, 'keys added to Object.prototype').to.deep.equal([]);
  expect(o.tokens, 'theme tokens are the defaults').to.deep.equal(DEFAULT_TOKENS);
  if ((kind === 'refused' || kind === 'absent' || kind === 'ignored') && reference) {
    for (const stage of Object.keys(reference.html) as Stage[]) {
      expect(o.html[stage], `${stage}: renders as without the value`).to.equal(reference.html[stage]);
    }
  }
  if (shows) expect(o.text[shows[0]], `${shows[0]}: shows the value as text`).to.contain(shows[1]);
}

/** A console message (warning or error) names each of `names`; none echoes a 1 MB value. */
function expectNamed(o: Observation, names: string[]): void {
  const messages = [...o.warnings, ...o.errors];
  const unnamed = names.filter((name) => !messages.some((m) => m.includes(name)));
  expect(unnamed, `names no console message holds; messages: ${JSON.stringify(messages.map((m) => m.slice(0, 160)))}`).to.deep.equal([]);
  for (const message of messages) expect(message.length, `console message of ${message.length} characters: ${message.slice(0, 120)}…`).to.be.below(2000);
}

const short = (value: unknown): string => {
  const text = value instanceof Raw ? value.json : JSON.stringify(value) ?? String(value);
  return text.length > 50 ? `${text.slice(0, 47)}...` : text;
};

/** `it`, or `it.skip` (titled with the reason) for a case listed in ELEMENT_BUGS under `key`. */
function check(key: string, title: string, body: () => void): void {
  const reason = ELEMENT_BUGS[key];
  if (reason) it.skip(`${title} [${reason}]`, body);
  else it(title, body);
}

// ---------------------------------------------------------------- the tests

const references = new Map<string, Observation>();
let caseCount = 0;

/** The observation of a valid config (cached): what a refused value must render like. */
async function referenceFor(json: string, steps: Steps = {}): Promise<Observation> {
  const key = json + JSON.stringify(steps);
  let reference = references.get(key);
  if (!reference) {
    const agentId = `hostile_reference_${references.size}`;
    await putWidget(agentId, json);
    reference = await observe(agentId, steps);
    if (reference.failure || reference.findings.length || reference.warnings.length || reference.errors.length) {
      throw new Error(`reference ${json.slice(0, 200)} is not clean: ${JSON.stringify(reference).slice(0, 500)}`);
    }
    references.set(key, reference);
  }
  return reference;
}

before(async () => {
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  performance.setResourceTimingBufferSize(100000);
  observer.observe({ type: 'resource', buffered: true });
  WebSocket.prototype.send = function send(this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (typeof data === 'string') frames.push(data);
    return realSend.call(this, data);
  };
});

after(() => {
  window.removeEventListener('error', onError);
  window.removeEventListener('unhandledrejection', onRejection);
  WebSocket.prototype.send = realSend;
});

// Mocha collects the tests when this module has run: the fields are the keys of the full fixture, read first.
const FULL = (await loadFixture('full')).widget_config;
const TEXT_LABELS = Object.keys(FULL['text_contents'] as object);
/** Every field of the full fixture (SERVICE-INTERFACE.md 2.11), each with its hostile values. */
const FIXTURE_FIELDS = Object.entries(FULL).map(([field, sample]): [string, Case[]] => [field, casesFor(field, sample, TEXT_LABELS)]);

describe('the hostile value tables', () => {
  it('cover every field of the full fixture', () => {
    expect(FIXTURE_FIELDS.length, 'fields of the full fixture').to.be.greaterThan(50);
    expect(FIXTURE_FIELDS.filter(([, cases]) => cases.length === 0).map(([field]) => field), 'fields without hostile values').to.deep.equal([]);
  });
});

for (const [field, cases] of FIXTURE_FIELDS) {
  describe(`widget_config.${field}`, function () {
    this.timeout(60000);
    const observations: Observation[] = [];
    let reference: Observation | undefined;

    // terms_text is the dialog's only content: without it (a refused value) there is no dialog, so only an inert one presses start.
    const steps = (c?: Case): Steps => ({ pressStart: field !== 'terms_text' || c?.kind === 'inert' });

    before(async () => {
      const base = baseFor(field);
      reference = await referenceFor(configJson(withoutField(base, field), null, undefined), steps());
      const agentId = `hostile_field_${field}`;
      for (const c of cases) {
        await putWidget(agentId, configJson(base, field, c.value));
        observations.push(await observe(agentId, steps(c)));
        caseCount += 1;
      }
    });

    cases.forEach((c, index) => {
      const title = `${field} = ${c.label} ${short(c.value)}`;
      check(`${field} | ${c.label} | safe`, `${title}: stays safe (${c.kind})`, () => expectSafe(observations[index]!, c.kind, reference, c.shows));
      if (c.kind === 'refused') check(`${field} | ${c.label} | named`, `${title}: a console warning names it`, () => expectNamed(observations[index]!, (c.names ?? [field]).map((n) => `widget_config.${n}`)));
    });
  });
}

describe('the whole widget_config hostile at once', function () {
  this.timeout(60000);
  const picks = Object.entries(FULL).map(([field, sample]) => {
    const pick = casesFor(field, sample, TEXT_LABELS).find((c) => (c.kind === 'refused' || c.kind === 'inert') && !(c.value instanceof Raw) && !ELEMENT_BUGS[`${field} | ${c.label} | safe`])!;
    return [field, pick] as const;
  });

  let injections: Observation;
  let wrongTyped: Observation;
  let empty: Observation;
  const wrongTypedConfig = Object.fromEntries(Object.entries(FULL).map(([field, sample]) => [field, wrongTypeFor(sample)]));

  before(async () => {
    await putWidget('hostile_whole', JSON.stringify(Object.fromEntries(picks.map(([field, c]) => [field, c.value]))));
    injections = await observe('hostile_whole');
    await putWidget('hostile_wrong_types', JSON.stringify(wrongTypedConfig));
    wrongTyped = await observe('hostile_wrong_types', { pressStart: false });
    empty = await referenceFor('{}', { pressStart: false });
  });

  const UNREPORTED: string[] = [];

  it('one hostile value in every field (injections, markup, wrong types): a working, default-styled, inert widget', () => {
    expect(picks.length).to.equal(Object.keys(FULL).length);
    expectSafe(injections, 'inert', undefined, ['terms', 'after script']);
  });
  it('one hostile value in every field: a console warning names every refused field (but avatar)', () => {
    expectNamed(injections, picks.filter(([field, c]) => c.kind === 'refused' && !UNREPORTED.includes(field)).flatMap(([field, c]) => (c.names ?? [field]).map((n) => `widget_config.${n}`)));
  });
  it('every field wrong-typed at once: renders as an empty config', () => expectSafe(wrongTyped, 'refused', empty));
  it('every field wrong-typed at once: a console warning names every field (but avatar)', () => {
    expectNamed(wrongTyped, Object.keys(wrongTypedConfig).filter((field) => !UNREPORTED.includes(field)).map((field) => `widget_config.${field}`));
  });
  check('whole | avatar | named', 'the whole config hostile: a console warning names widget_config.avatar', () => {
    expectNamed(injections, ['widget_config.avatar']);
    expectNamed(wrongTyped, ['widget_config.avatar']);
  });
});

describe('a widget_config that is not an object', function () {
  this.timeout(30000);
  const values: [string, string][] = [
    ['null (the read answers "widget_config": null, as if it were missing)', 'null'],
    ['a string', '"<script>alert(1)</script>"'],
    ['an array', '[{"variant":"full","styles":{"accent":"red"}}]'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ];
  for (const [label, json] of values) {
    it(`${label}: the error state, and the console says why`, async () => {
      await putWidget('hostile_not_object', json);
      const read = await fetch(`${serviceUrl}/v1/convai/agents/hostile_not_object/widget`).then((r) => r.json());
      expect(read).to.deep.equal({ agent_id: 'hostile_not_object', widget_config: JSON.parse(json) });
      const o = await observe('hostile_not_object');
      expectSafe(o, 'error', undefined);
      expect(o.errors.some((e) => e.includes('widget_config') && e.includes('hostile_not_object')), `console error names widget_config: ${o.errors}`).to.equal(true);
    });
  }
});

// ---------------------------------------------------------------- attributes

interface AttributeCase extends Case {
  value: string;
}
const attrHuge = (prefix = ''): AttributeCase => ({ label: HUGE_LABEL, value: huge(prefix), kind: 'refused' });
const BOOLEAN_ATTRIBUTE_VALUES: AttributeCase[] = [
  { label: '"yes"', value: 'yes', kind: 'refused' },
  { label: '"0"', value: '0', kind: 'refused' },
  { label: '"false; true"', value: 'false; true', kind: 'refused' },
  { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
  attrHuge('true'),
];
const ENUM_ATTRIBUTE_VALUES = (injection: string): AttributeCase[] => [
  { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
  { label: `class injection "${injection}"`, value: injection, kind: 'refused' },
  { label: 'prototype key "constructor"', value: 'constructor', kind: 'refused' },
  { label: 'prototype key "__proto__"', value: '__proto__', kind: 'refused' },
  { label: 'empty', value: '', kind: 'refused' },
  attrHuge(),
];
const SIGNED = 'agent_id=hostile_attributes&conversation_signature=sig';

/** What an attribute does, to check it did not take effect: its value in the initiation frame (conversation attributes). */
const initiationValue: Record<string, (initiation: Record<string, any>) => unknown> = {
  'override-first-message': (i) => i['conversation_config_override']?.agent?.first_message,
  'override-language': (i) => i['conversation_config_override']?.agent?.language,
  'override-prompt': (i) => i['conversation_config_override']?.agent?.prompt?.prompt,
  'override-voice-id': (i) => i['conversation_config_override']?.tts?.voice_id,
  'override-text-only': (i) => i['conversation_config_override']?.conversation?.text_only,
  'user-id': (i) => i['user_id'],
  'dynamic-variables': (i) => i['dynamic_variables'],
};

const ATTRIBUTES: [string, AttributeCase[]][] = [
  ['variant', ENUM_ATTRIBUTE_VALUES('full evil')],
  ['placement', ENUM_ATTRIBUTE_VALUES('top-left panel')],
  ...['default-expanded', 'always-expanded', 'dismissible', 'transcript', 'text-input', 'mic-muting', 'override-text-only'].map((name): [string, AttributeCase[]] => [name, BOOLEAN_ATTRIBUTE_VALUES]),
  ['language', [
    { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
    { label: 'attribute injection', value: 'en" onmouseover="alert(1)', kind: 'refused' },
    { label: 'prototype key "constructor"', value: 'constructor', kind: 'refused' },
    { label: 'path', value: '../../x', kind: 'refused' },
    attrHuge('en'),
  ]],
  ['avatar-image-url', [...URL_VALUES.map((c) => ({ ...c, value: String(c.value) })), attrHuge('https://example.com/')]],
  ['avatar-orb-color-1', [...CSS_INJECTIONS.map((c) => ({ ...c, value: String(c.value) })), attrHuge('red;')]],
  ['avatar-orb-color-2', [...CSS_INJECTIONS.map((c) => ({ ...c, value: String(c.value) })), attrHuge('red;')]],
  ['markdown-link-allowed-hosts', [
    { label: '"javascript:alert(1)"', value: 'javascript:alert(1)', kind: 'refused' },
    { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
    { label: 'an entry with credentials', value: 'https://user:pw@evil.example/', kind: 'refused' },
    attrHuge('evil.example'),
  ]],
  ['override-first-message', [
    { label: 'markup: script, img onerror, style, iframe, svg, form', value: MARKUP.slice(0, 6).map((c) => String(c.value)).join(''), kind: 'inert', shows: ['conversation', 'after script'] },
    { label: 'markdown: evil image and javascript: link', value: '![pic](https://evil.example/md.png) [run](javascript:alert(1)) after md', kind: 'inert', shows: ['conversation', 'pic run after md'] },
    attrHuge('<script>alert(1)</script>'),
  ]],
  ['override-language', [
    { label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'refused' },
    { label: 'prototype key "constructor"', value: 'constructor', kind: 'refused' },
    { label: 'not a language tag "en; x"', value: 'en; x', kind: 'refused' },
    attrHuge('en'),
  ]],
  ['override-prompt', [{ label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'inert' }, attrHuge()]],
  ['override-voice-id', [{ label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'inert' }, attrHuge()]],
  ['user-id', [{ label: 'markup <script>', value: '<script>alert(1)</script>', kind: 'inert' }, attrHuge()]],
  ['signed-url', [
    { label: 'javascript: URL', value: `javascript:alert(1)//?${SIGNED}`, kind: 'error' },
    { label: 'https (not ws) URL to evil', value: `https://evil.example/c?${SIGNED}`, kind: 'error' },
    { label: 'wss URL with credentials', value: `wss://user:pw@evil.example/c?${SIGNED}`, kind: 'error' },
    { label: 'ws URL without a signature', value: 'ws://127.0.0.1:9/c?agent_id=hostile_attributes', kind: 'error' },
    { label: 'not a URL', value: '<script>alert(1)</script>', kind: 'error' },
    { ...attrHuge('wss://evil.example/'), kind: 'error' },
  ]],
  ['dynamic-variables', [
    { label: 'not JSON', value: '{not json', kind: 'refused' },
    { label: 'an array', value: '[1,2]', kind: 'refused' },
    { label: 'a string', value: '"<script>alert(1)</script>"', kind: 'refused' },
    { label: 'prototype keys __proto__ / constructor', value: '{"__proto__":{"customer_name":"Polluted"},"constructor":{"prototype":{"x":1}}}', kind: 'refused', names: ['dynamic-variables.__proto__', 'dynamic-variables.constructor'] },
    { label: 'a value that is an object', value: '{"customer_name":{"toString":"x"}}', kind: 'refused', names: ['dynamic-variables.customer_name'] },
    { label: 'a value of 1 MB', value: `{"customer_name":"${huge()}"}`, kind: 'refused', names: ['dynamic-variables.customer_name'] },
    { label: 'a value with markup', value: JSON.stringify({ customer_name: String(MARKUP[0]!.value) + String(MARKUP[1]!.value) }), kind: 'inert', shows: ['open', 'after script'] },
  ]],
  ['text-contents', [
    { label: 'not JSON', value: '{not json', kind: 'refused' },
    { label: 'an array', value: '[]', kind: 'refused' },
    { label: 'a label that is a number', value: '{"main_label":42}', kind: 'refused', names: ['text-contents.main_label'] },
    { label: 'prototype keys __proto__ / constructor', value: '{"__proto__":{"main_label":"Polluted"},"constructor":"x"}', kind: 'refused', names: ['text-contents.__proto__', 'text-contents.constructor'] },
    { label: 'a label of 1 MB', value: `{"main_label":"${huge()}"}`, kind: 'refused', names: ['text-contents.main_label'] },
    { label: 'a label with markup', value: JSON.stringify({ main_label: LABEL_MARKUP }), kind: 'inert', shows: ['closed', LABEL_MARKUP] },
  ]],
  ['server-url', [
    { label: 'javascript: URL', value: 'javascript:alert(1)', kind: 'error' },
    { label: 'data: URL', value: 'data:text/html,<script>alert(1)</script>', kind: 'error' },
    { label: 'ftp URL to evil', value: 'ftp://evil.example/', kind: 'error' },
    { label: 'URL with credentials', value: 'http://user:pw@127.0.0.1:9/', kind: 'error' },
    { label: 'not a URL', value: '<script>alert(1)</script>', kind: 'error' },
    { ...attrHuge(), kind: 'error' },
  ]],
  ['agent-id', [
    { label: 'empty', value: '', kind: 'error' },
    { label: 'path traversal', value: '../../v1/convai/agents', kind: 'error' },
    { label: 'markup', value: '<img src=x onerror=alert(1)>', kind: 'error' },
    { label: 'prototype key "constructor"', value: 'constructor', kind: 'error' },
    { label: 'prototype key "__proto__"', value: '__proto__', kind: 'error' },
    { ...attrHuge(), kind: 'error' },
  ]],
];
const CONVERSATION_ATTRIBUTES = new Set(Object.keys(initiationValue));

/**
 * What a console message about an attribute must contain: the attribute's name (or the more precise `names` of the
 * case, such as `dynamic-variables.__proto__`). An agent-id of the right form that is no agent is the exception, checked
 * in the test: the configuration read reports it and names the agent, `agent "<id>"`.
 */
const attributeNames = (name: string, c: AttributeCase): string[] => c.names ?? [name];

describe('hostile attribute values', function () {
  this.timeout(60000);

  it('every override attribute of the element is in the table', () => {
    const element = customElements.get('voice-agent-widget') as unknown as { observedAttributes: string[] };
    const observed = element.observedAttributes;
    const covered = ATTRIBUTES.map(([name]) => name);
    expect(observed.length, 'observed attributes').to.be.greaterThan(20);
    expect(observed.filter((name) => !covered.includes(name)), 'observed attributes without hostile values').to.deep.equal([]);
  });
});

for (const [name, cases] of ATTRIBUTES) {
  describe(`attribute ${name}`, function () {
    this.timeout(60000);
    const observations: Observation[] = [];
    let reference: Observation | undefined;
    const converse = CONVERSATION_ATTRIBUTES.has(name);

    before(async () => {
      const json = configJson(BASE, null, undefined);
      reference = await referenceFor(json);
      await putWidget('hostile_attributes', json);
      for (const c of cases) {
        observations.push(await observe('hostile_attributes', {
          attributes: { [name]: c.value }, converse: converse && c.kind !== 'error', awaitAgentMessage: converse && c.kind === 'inert' && name === 'override-first-message',
        }));
        caseCount += 1;
      }
    });

    cases.forEach((c, index) => {
      const title = `${name}=${short(c.value)} (${c.label})`;
      check(`attr:${name} | ${c.label} | safe`, `${title}: stays safe (${c.kind})`, () => {
        const o = observations[index]!;
        expectSafe(o, c.kind, reference, c.shows);
        if (converse && c.kind !== 'error') {
          expect(o.initiation?.['type'], 'the initiation was sent').to.equal('conversation_initiation_client_data');
          const sent = initiationValue[name]!(o.initiation!);
          if (name === 'dynamic-variables' && c.kind === 'refused') expect(sent, 'dynamic_variables sent').to.deep.equal({});
          else if (name === 'override-text-only') expect(sent, 'text_only sent').to.equal(true);
          else if (c.kind === 'refused') expect(sent, `${name} sent in the initiation`).to.not.equal(c.value);
        }
      });
      if (c.kind !== 'inert') {
        check(`attr:${name} | ${c.label} | named`, `${title}: a console message names the attribute`, () => {
          const names = attributeNames(name, c);
          const o = observations[index]!;
          if (name === 'agent-id' && c.value !== '' && c.value.length <= 256) {
            // An id of the right form that is not an agent: the configuration read fails and names the agent.
            expect([...o.warnings, ...o.errors].some((m) => m.includes(`agent "${c.value}"`)), `a console message names agent "${c.value}"`).to.equal(true);
            expectNamed(o, []);
          } else expectNamed(o, names);
        });
      }
    });
  });
}

describe('the checks are not vacuous (controls)', () => {
  it('a valid colour, variant and avatar do take effect, and the checks see it', async () => {
    const valid = { ...BASE, variant: 'full', styles: { accent: '#ff0000' }, avatar: { type: 'image' }, custom_avatar_path: '/test/helpers.ts' };
    await putWidget('hostile_control', JSON.stringify(valid));
    const o = await observe('hostile_control');
    // Compared with the reference (a second mount, unless an earlier test already observed and cached it).
    const reference = await referenceFor(configJson(BASE, null, undefined));
    expect(o.tokens['accent'], 'a valid accent reaches --_accent').to.equal('#ff0000');
    expect(o.html.closed, 'a valid variant changes the rendering').to.not.equal(reference.html.closed);
    expect(o.html.closed, 'a valid avatar path renders a picture').to.contain('<img part="avatar"');
    expect(o.warnings).to.deep.equal([]);
  });
});

/**
 * WebKit records no resource timing entry for a request that fails (evil.example does not resolve), so there the check
 * cannot see such a request: the control would fail, and "none went out" could not. Both skip WebKit (the other checks
 * of every case still run there).
 */
const itSeesRequests = itExcept(['webkit'], 'no resource timing entry for a failed request, so the check is blind there');

describe('requests to evil.example', () => {
  itSeesRequests('the check sees them: a control image outside the widget is recorded', async () => {
    const image = new Image();
    const settled = Promise.race([oneEvent(image, 'load'), oneEvent(image, 'error')]); // whichever comes (evil.example does not answer: error)
    image.src = 'https://evil.example/control.png';
    await settled;
    await until(() => performance.getEntriesByType('resource').some((e) => e.name === 'https://evil.example/control.png'), 'control entry', 2000);
    performance.clearResourceTimings();
  });

  itSeesRequests('none went out from any case of this file', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(caseCount, 'cases observed').to.be.greaterThan(400);
    expect(evilSeen.filter((url) => !url.endsWith('/control.png'))).to.deep.equal([]);
  });
});
