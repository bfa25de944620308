// PROTOCOL.md section 2: the service's widget_config with the element's attributes laid over it (config/resolve.ts).
import { expect } from '@open-wc/testing';
import { resolveConfig, resolveLabels } from '../../../src/config/resolve.js';
import { resolveTexts, termsFor } from '../../../src/config/texts.js';
import { resolveWidgetConfig } from '../../../src/config/validate.js';
import { captureConsole } from '../../helpers.js';

const PAGE = 'https://shop.test/products/page.html';

/** `resolveConfig` with its problems collected, and whatever reached the console. */
async function resolve(raw: unknown, attributes: Parameters<typeof resolveConfig>[1] = {}) {
  const problems: string[] = [];
  const { result, warnings, errors } = await captureConsole(() => resolveConfig(raw, attributes, PAGE, (message) => problems.push(message)));
  return { ...result, problems, console: [...warnings, ...errors] };
}

describe('resolveConfig', () => {
  it('validates the configuration: what validation gives, the link policy of the page, the agent\'s language', async () => {
    const raw = {
      language: 'de-AT', variant: 'full',
      markdown_link_allowed_hosts: [{ hostname: 'acme.example' }], markdown_link_include_www: true, markdown_link_allow_http: true,
    };
    const { config, linkPolicy, agentLanguage, problems, console } = await resolve(raw);
    expect(config).to.deep.equal(resolveWidgetConfig(raw, () => {}, PAGE));
    expect(linkPolicy).to.deep.equal({ allowedHosts: ['acme.example'], includeWww: true, allowHttp: true, pageUrl: PAGE });
    expect(agentLanguage).to.equal('de-at');
    expect(problems).to.deep.equal([]);
    expect(console, 'nothing reaches the console by itself').to.deep.equal([]);
  });

  it('lays the override attributes over the configuration: attributes win, the conversation attributes are not read', async () => {
    const { config, agentLanguage } = await resolve(
      { variant: 'tiny', language: 'en', dismissible: false, avatar: { type: 'orb', color_1: '#111111' } },
      { variant: 'compact', language: 'fr', dismissible: '', 'avatar-orb-color-2': '#222222', 'override-language': 'de', 'user-id': 'u1' },
    );
    expect(config.variant).to.equal('compact');
    expect(config.language).to.equal('fr');
    expect(config.dismissible).to.equal(true);
    expect(config.avatar).to.deep.equal({ type: 'orb', color_1: '#111111', color_2: '#222222' });
    expect(agentLanguage, 'the agent\'s own, not the attribute\'s').to.equal('en');
  });

  it('tells each problem through warn, naming the attribute that set a bad field; the field takes its default', async () => {
    const { config, problems, console } = await resolve(
      { placement: 'middle', styles: { accent: 'red; background: url(x)' } },
      { variant: 'huge', 'default-expanded': 'maybe' },
    );
    expect(config.variant).to.equal('compact');
    expect(config.placement).to.equal('bottom-right');
    expect(config.default_expanded).to.equal(false);
    expect(problems).to.have.length(4);
    expect(problems).to.include('attribute variant (widget_config.variant): expected one of tiny, compact, full (got "huge"); using the default.');
    expect(problems).to.include('attribute default-expanded="maybe" is not true or false; ignored.');
    expect(problems.some((p) => p.startsWith('widget_config.placement: expected one of'))).to.equal(true);
    expect(problems.some((p) => p.startsWith('widget_config.styles.accent: not a CSS colour'))).to.equal(true);
    expect(console).to.deep.equal([]);
  });

  it('never throws: anything that is not an object gives every default', async () => {
    for (const raw of [undefined, null, 'config', 42, ['a']]) {
      const { config, agentLanguage } = await resolve(raw);
      expect(config, String(raw)).to.deep.equal(resolveWidgetConfig({}, () => {}, PAGE));
      expect(agentLanguage).to.equal('en');
    }
  });

  it('gives new objects for each call and keeps no state: the caller remembers them', async () => {
    const raw = { variant: 'huge' };
    const first = await resolve(raw);
    const second = await resolve(raw);
    expect(second.config).to.not.equal(first.config);
    expect(second.config).to.deep.equal(first.config);
    expect(second.problems, 'told again: remembering is the caller\'s').to.deep.equal(first.problems);
  });
});

describe('resolveLabels', () => {
  const config = resolveWidgetConfig(
    { text_contents: { main_label: 'Help?' }, terms_text: 'Terms', terms_key: 't1', language_presets: { de: { text_contents: { main_label: 'Hilfe?' }, terms_text: 'AGB' } } },
    () => {},
    PAGE,
  );

  it('gives the labels and the terms in the language, under the text-contents attribute', () => {
    expect(resolveLabels(config, 'de', {})).to.deep.equal({ texts: resolveTexts(config, 'de'), terms: termsFor(config, 'de') });
    expect(resolveLabels(config, 'de', {}).texts.main_label).to.equal('Hilfe?');
    expect(resolveLabels(config, 'de', {}).terms).to.deep.equal({ html: '', text: 'AGB', key: 't1' });
    expect(resolveLabels(config, 'en', { main_label: 'Questions?' }).texts.main_label).to.equal('Questions?');
    expect(resolveLabels(config, 'en', {}).terms!.text).to.equal('Terms');
  });
});
