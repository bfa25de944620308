import { expect } from '@open-wc/testing';
import { resolveWidgetConfig, type WidgetConfig } from '../../../src/config/index.js';
import { ThemeController } from '../../../src/widget/controllers/theme.js';
import { mountHost, type TestHost } from './host.js';

/** A host themed from `config` (null: the defaults), and the one sheet the controller adopted, its writes counted. */
async function mountTheme(config: { current: WidgetConfig | null }): Promise<{ host: TestHost; sheet: CSSStyleSheet; writes: string[] }> {
  const { host } = await mountHost((h) => new ThemeController(h, () => config.current));
  const sheets = host.shadowRoot!.adoptedStyleSheets;
  expect(sheets, 'one adopted sheet: the theme').to.have.length(1);
  const sheet = sheets[0]!;
  const writes: string[] = [];
  const replaceSync = sheet.replaceSync.bind(sheet);
  sheet.replaceSync = (text: string) => {
    writes.push(text);
    replaceSync(text);
  };
  return { host, sheet, writes };
}

const token = (host: TestHost, name: string): string => getComputedStyle(host).getPropertyValue(`--_${name}`).trim();
const configOf = (raw: unknown): WidgetConfig => resolveWidgetConfig(raw, () => {}, location.href);

describe('ThemeController', () => {
  it('writes the default theme into one adopted sheet as --_ tokens that read the page\'s --voice-agent- property first', async () => {
    const { host, sheet } = await mountTheme({ current: null });
    expect(sheet.cssRules).to.have.length(1);
    const rule = sheet.cssRules[0]!.cssText;
    expect(rule).to.match(/^:host \{/);
    expect(rule).to.contain('--_accent: var(--voice-agent-accent,#000000)');
    expect(token(host, 'accent')).to.equal('#000000');
    expect(token(host, 'sheet-radius')).to.equal('24px');
    host.style.setProperty('--voice-agent-accent', 'rgb(1, 2, 3)');
    expect(token(host, 'accent'), 'the page\'s property wins').to.equal('rgb(1, 2, 3)');
  });

  it('rewrites the sheet only when the theme changed, keeping the one sheet', async () => {
    const config = { current: null as WidgetConfig | null };
    const { host, sheet, writes } = await mountTheme(config);
    host.requestUpdate();
    await host.updateComplete;
    expect(writes, 'same theme: not written again').to.deep.equal([]);

    config.current = configOf({ styles: { accent: '#6d28d9', button_radius: 10 }, avatar: { color_1: '#ff0000' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(writes).to.have.length(1);
    expect(host.shadowRoot!.adoptedStyleSheets).to.deep.equal([sheet]);
    expect(token(host, 'accent')).to.equal('#6d28d9');
    expect(token(host, 'button-radius')).to.equal('10px');
    expect(token(host, 'compact-sheet-radius'), 'derived: button radius + 12').to.equal('22px');
    expect(token(host, 'orb-color-1')).to.equal('#ff0000');

    config.current = configOf({ styles: { accent: '#6d28d9', button_radius: 10 }, avatar: { color_1: '#ff0000' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(writes, 'an equal configuration: not written again').to.have.length(1);
  });

  it('mixes the text colour into the error text only where base_error falls short of 4.5:1 on base', async () => {
    const config = { current: null as WidgetConfig | null };
    const { host } = await mountTheme(config);
    // The default red (#ef4444) on white is 3.8:1: some black is mixed in (textMix decides how much).
    expect(token(host, 'error-mix')).to.match(/^[1-9]\d*%$/);
    config.current = configOf({ styles: { base_error: '#b91c1c' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(token(host, 'error-mix'), 'a dark red reads at 6.5:1: drawn as itself').to.equal('0%');
    config.current = configOf({ styles: { base: 'rgb(17, 24, 39)', base_primary: '#fff', base_error: 'rgba(153, 27, 27, 1)' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(token(host, 'error-mix'), 'a dark theme: light text mixed in').to.match(/^[1-9]\d*%$/);
    config.current = configOf({ styles: { base_error: 'crimson' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(token(host, 'error-mix'), 'a colour name is not read: no mix decided (the styles fall back to 30%)').to.equal('');
  });

  it('mixes the text colour into the subtle text only where base_subtle falls short of 4.5:1 on base or base_active', async () => {
    const config = { current: null as WidgetConfig | null };
    const { host } = await mountTheme(config);
    // The default grey (#6b7280) is 4.8:1 on white but 4.4:1 on the default base_active (#f3f4f6).
    expect(token(host, 'subtle-mix')).to.equal('5%');
    config.current = configOf({ styles: { base_subtle: '#4b5563' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(token(host, 'subtle-mix'), 'a darker grey reads on both: drawn as itself').to.equal('0%');
    config.current = configOf({ styles: { base_subtle: '#d1d5db' } });
    host.requestUpdate();
    await host.updateComplete;
    expect(parseInt(token(host, 'subtle-mix'), 10), 'a pale grey (1.5:1): much of the text colour').to.be.at.least(50);
  });
});
