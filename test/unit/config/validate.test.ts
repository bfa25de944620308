import { expect } from '@open-wc/testing';
import { loadFixture } from '../../helpers.js';
import { DEFAULT_TEXTS, resolveTexts, resolveTheme, resolveWidgetConfig, themeRule, isCssColor, type WidgetConfig } from '../../../src/config/index.js';

const PAGE = 'https://shop.example/page';

function resolve(raw: unknown): { config: WidgetConfig; problems: string[] } {
  const problems: string[] = [];
  const config = resolveWidgetConfig(raw, (field, problem) => problems.push(`${field}: ${problem}`), PAGE);
  return { config, problems };
}

let full: Awaited<ReturnType<typeof loadFixture>>;
before(async () => {
  full = await loadFixture('full');
});

describe('resolveWidgetConfig', () => {
  it('reads the full fixture with no problem and keeps its values', () => {
    const { config, problems } = resolve(full.widget_config);
    expect(problems).to.deep.equal([]);
    expect(config.variant).to.equal('full');
    expect(config.expandable).to.equal('always');
    expect(config.feedback_mode).to.equal('end');
    expect(config.end_feedback).to.deep.equal({ type: 'rating' });
    expect(config.avatar).to.deep.equal({ type: 'orb', color_1: '#6d28d9', color_2: '#22d3ee' });
    expect(config.markdown_link_allowed_hosts).to.deep.equal(['acme.example', 'docs.acme.example']);
    expect(config.supported_language_overrides).to.deep.equal(['en', 'de', 'fr', 'ar']);
    expect(config.language_presets['de']?.text_contents?.main_label).to.equal('Brauchen Sie Hilfe?');
    expect(config.styles.accent).to.equal('#6d28d9');
    expect(config.styles.sheet_radius).to.equal(24);
    expect(config.override_link).to.equal('https://acme.example/agents');
    expect(config.terms_key).to.equal('acme_terms_v3');
  });

  it('gives every default for an empty or non-object configuration, and reports a non-object', () => {
    const empty = resolve({});
    expect(empty.problems).to.deep.equal([]);
    expect(empty.config.variant).to.equal('compact');
    expect(empty.config.placement).to.equal('bottom-right');
    expect(empty.config.expandable).to.equal('never');
    expect(empty.config.feedback_mode).to.equal('none');
    expect(empty.config.language).to.equal('en');
    expect(empty.config.avatar).to.deep.equal({ type: 'orb', color_1: '#2792dc', color_2: '#9ce6e6' });
    expect(empty.config.transcript_enabled).to.equal(true);
    expect(empty.config.markdown_link_allow_http).to.equal(false);
    const wrong = resolve('not an object');
    expect(wrong.problems).to.have.length(1);
    expect(wrong.problems[0]).to.match(/^widget_config: expected an object/);
    expect(wrong.config.variant).to.equal('compact');
  });

  it('replaces each bad value by its default and names the field', () => {
    const { config, problems } = resolve({
      variant: 'gigantic',
      placement: 42,
      dismissible: 'yes',
      avatar: { type: 'orb', color_1: 'red; background: url(https://evil.example/x)', color_2: 'var(--page-secret)' },
      styles: { accent: 'expression(alert(1))', base: '#123456', button_radius: -4, input_radius: Infinity, bubble_radius: '15' },
      bg_color: '}</style><script>',
      language: 'english please',
      supported_language_overrides: ['de', 7, 'x y'],
      markdown_link_allowed_hosts: [{ hostname: 'ok.example' }, 'bare.example', { hostname: 3 }],
      text_contents: { main_label: 12, start_chat: 'Chat' },
      first_message: 'x'.repeat(30000),
    });
    expect(config.variant).to.equal('compact');
    expect(config.placement).to.equal('bottom-right');
    expect(config.dismissible).to.equal(false);
    expect(config.avatar.color_1).to.equal('#2792dc');
    expect(config.avatar.color_2).to.equal('#9ce6e6');
    expect(config.styles).to.deep.equal({ base: '#123456' });
    expect(config.bg_color).to.equal(undefined);
    expect(config.language).to.equal('en');
    expect(config.supported_language_overrides).to.deep.equal(['de']);
    expect(config.markdown_link_allowed_hosts).to.deep.equal(['ok.example']);
    expect(config.text_contents).to.deep.equal({ start_chat: 'Chat' });
    expect(config.first_message).to.equal('');
    const fields = problems.map((p) => p.split(':')[0]);
    expect(fields).to.include.members([
      'variant', 'placement', 'dismissible', 'avatar.color_1', 'avatar.color_2', 'styles.accent', 'styles.button_radius',
      'styles.input_radius', 'styles.bubble_radius', 'bg_color', 'language', 'supported_language_overrides[1]',
      'supported_language_overrides[2]', 'markdown_link_allowed_hosts[1]', 'markdown_link_allowed_hosts[2]',
      'text_contents.main_label', 'first_message',
    ]);
  });

  it('reads the legacy variant `expanded` as `full`, and enum values case-insensitively', () => {
    expect(resolve({ variant: 'expanded' }).config.variant).to.equal('full');
    expect(resolve({ placement: 'Top-Left' }).config.placement).to.equal('top-left');
  });

  it('accepts only https or same-origin URLs for the avatar and the banner link', () => {
    expect(resolve({ custom_avatar_path: 'javascript:alert(1)' }).config.custom_avatar_path).to.equal('');
    expect(resolve({ custom_avatar_path: 'http://cdn.example/a.png' }).config.custom_avatar_path).to.equal('');
    expect(resolve({ custom_avatar_path: 'https://user:pw@cdn.example/a.png' }).config.custom_avatar_path).to.equal('');
    expect(resolve({ custom_avatar_path: '/img/a.png' }).config.custom_avatar_path).to.equal('https://shop.example/img/a.png');
    expect(resolve({ override_link: 'data:text/html,x' }).config.override_link).to.equal('');
  });
});

describe('isCssColor', () => {
  it('accepts CSS colours and refuses anything that could carry other CSS', () => {
    for (const ok of ['#fff', '#11223344', 'rgb(1 2 3 / 50%)', 'hsl(200deg 50% 50%)', 'rebeccapurple', 'transparent', 'color-mix(in srgb, red, blue)']) {
      expect(isCssColor(ok), ok).to.equal(true);
    }
    for (const bad of ['', 'red;', 'red; color: blue', 'url(x)', 'var(--x)', 'env(safe-area-inset-top)', '#ggg', 'red}', '12', 12, null, 'x'.repeat(200)]) {
      expect(isCssColor(bad), String(bad)).to.equal(false);
    }
  });
});

describe('resolveTexts', () => {
  const config = resolve({
    action_text: 'Legacy label',
    start_call_text: 'Legacy call',
    text_contents: { start_call: 'Configured call', end_call: 'Configured end' },
    language_presets: { de: { text_contents: { end_call: 'Beenden', collapse: 'Einklappen' } } },
  }).config;

  it('applies attribute → preset → text_contents → legacy → default', () => {
    const texts = resolveTexts(config, 'de', { collapse: 'From attribute' });
    expect(texts.collapse).to.equal('From attribute');
    expect(texts.end_call).to.equal('Beenden');
    expect(texts.start_call).to.equal('Configured call');
    expect(texts.main_label).to.equal('Legacy label');
    expect(texts.send_message).to.equal(DEFAULT_TEXTS.send_message);
  });

  it('falls back from a regional language to its preset of the primary tag, and to no preset', () => {
    expect(resolveTexts(config, 'de-at').end_call).to.equal('Beenden');
    expect(resolveTexts(config, 'fr').end_call).to.equal('Configured end');
  });
});

describe('resolveTheme', () => {
  it('uses styles over legacy fields over defaults, and derives the sheet radii', () => {
    const theme = resolveTheme(resolve({ bg_color: '#101010', btn_color: '#202020', styles: { accent: '#303030', button_radius: 10 } }).config);
    expect(theme['base']).to.equal('#101010');
    expect(theme['accent']).to.equal('#303030');
    expect(theme['base-error']).to.equal('#ef4444');
    expect(theme['focus']).to.equal('#303030');
    expect(theme['button-radius']).to.equal('10px');
    expect(theme['sheet-radius']).to.equal('16px');
    expect(theme['compact-sheet-radius']).to.equal('22px');
    expect(theme['dropdown-sheet-radius']).to.equal('16px');
    expect(theme['overlay-padding']).to.equal('32px');
  });

  it('applies the legacy radii and focus colour when styles has none', () => {
    const theme = resolveTheme(resolve({ border_radius: 3, btn_radius: 5, focus_color: 'orange' }).config);
    expect(theme['sheet-radius']).to.equal('3px');
    expect(theme['button-radius']).to.equal('5px');
    expect(theme['focus']).to.equal('orange');
  });

  it('writes one :host rule whose every value is a validated colour or a px length', () => {
    const rule = themeRule(resolveTheme(resolve(full.widget_config).config));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(rule);
    expect(sheet.cssRules).to.have.length(1);
    const style = (sheet.cssRules[0] as CSSStyleRule).style;
    expect(style.getPropertyValue('--_accent').trim()).to.equal('var(--voice-agent-accent,#6d28d9)');
    expect(style.getPropertyValue('--_sheet-radius').trim()).to.equal('var(--voice-agent-sheet-radius,24px)');
    expect(style.getPropertyValue('--_overlay-padding').trim()).to.equal('var(--voice-agent-overlay-padding,24px)');
  });
});
