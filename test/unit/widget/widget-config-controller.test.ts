import { aTimeout, expect } from '@open-wc/testing';
import { html } from 'lit';
import { clearWidgetConfigCache } from '../../../src/config/cache.js';
import { resolveTexts, resolveWidgetConfig } from '../../../src/config/index.js';
import { WidgetConfigController, type WidgetConfigArgs, type WidgetConfigValue } from '../../../src/widget/controllers/widget-config.js';
import { captureConsole, loadFixture, until } from '../../helpers.js';
import { FakeFetch, detach, mountHost, type TestHost } from './host.js';

const SERVER = 'https://service.test';

/** A host whose config controller reads `args` (mutable: change it, then `update()`) through a fake fetch. */
async function mountConfig(
  args: Partial<WidgetConfigArgs> = {},
  network = new FakeFetch(),
): Promise<{ host: TestHost; controller: WidgetConfigController; network: FakeFetch; args: WidgetConfigArgs; update: (change: Partial<WidgetConfigArgs>) => Promise<void> }> {
  const current: WidgetConfigArgs = { agentId: 'agent_1', serverUrl: SERVER, signedUrl: null, dynamicVariables: '', textContents: '', attributes: {}, ...args };
  const { host, made: controller } = await mountHost((h) => {
    const made = new WidgetConfigController(h, () => current, { fetch: network.fetch });
    h.content = () => html`<p>${made.status}</p>`;
    return made;
  });
  const update = async (change: Partial<WidgetConfigArgs>): Promise<void> => {
    Object.assign(current, change);
    host.requestUpdate();
    await host.updateComplete;
  };
  return { host, controller, network, args: current, update };
}

/** Answers the latest read with `widgetConfig` and waits until the controller is ready. */
async function answer(controller: WidgetConfigController, network: FakeFetch, widgetConfig: unknown, agentId = 'agent_1'): Promise<void> {
  network.last.respond(200, { agent_id: agentId, widget_config: widgetConfig });
  await until(() => controller.status === 'ready', 'configuration ready');
}

/** The value, read with the console captured: reading it validates (once per response and override attributes). */
async function readValue(controller: WidgetConfigController): Promise<{ value: WidgetConfigValue; warnings: string[]; errors: string[] }> {
  const { result, warnings, errors } = await captureConsole(() => controller.value);
  expect(result, 'a value once ready').to.not.equal(null);
  return { value: result!, warnings, errors };
}

/** The browser's languages (`navigator.languages`) as `languages` for one test. */
function browserLanguages(languages: string[]): void {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
}

let full: Awaited<ReturnType<typeof loadFixture>>;
before(async () => {
  full = await loadFixture('full');
});
beforeEach(() => {
  browserLanguages(['en-US', 'en']);
  // Each test is a first visit: a configuration cached by an earlier test would make the read `ready` at once
  // (the cache itself: widget-config-cache.test.ts).
  clearWidgetConfigCache();
});
afterEach(() => {
  delete (navigator as { languages?: readonly string[] }).languages;
});

/** A configuration offering German and French, with German labels and terms. */
const MULTILINGUAL = {
  language: 'en',
  supported_language_overrides: ['de', 'fr'],
  terms_text: 'Terms',
  terms_key: 'terms_v1',
  language_presets: { de: { text_contents: { main_label: 'Brauchen Sie Hilfe?' }, terms_text: 'AGB', terms_key: 'agb_v1' } },
};

describe('WidgetConfigController', () => {
  it('goes loading → ready and resolves {config, texts, linkPolicy, terms, language, agentLanguage, dynamicVariables, endpoint}', async () => {
    const { host, controller, network } = await mountConfig({ dynamicVariables: '{"customer_name":"Ada","vip":true}' });
    expect(controller.status).to.equal('loading');
    expect(controller.value).to.equal(null);
    expect(network.calls).to.have.length(1);
    expect(network.last.url).to.equal(`${SERVER}/v1/convai/agents/agent_1/widget`);
    expect(network.last.init).to.deep.include({ method: 'GET', credentials: 'omit' });
    expect(controller.texts.main_label, 'default labels while loading').to.equal('Need help?');

    await answer(controller, network, full.widget_config);
    await host.updateComplete;
    expect(host.shadowRoot!.textContent!.trim(), 'the host re-rendered').to.equal('ready');
    const { value, warnings, errors } = await readValue(controller);
    expect(warnings).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    const config = resolveWidgetConfig(full.widget_config, () => {}, location.href);
    expect(value.config).to.deep.equal(config);
    expect(value.texts).to.deep.equal(resolveTexts(config, 'en'));
    expect(controller.texts).to.equal(value.texts);
    expect(value.linkPolicy).to.deep.equal({ allowedHosts: ['acme.example', 'docs.acme.example'], includeWww: true, allowHttp: false, pageUrl: location.href });
    expect(value.terms).to.deep.equal({ html: config.terms_html, text: config.terms_text, key: 'acme_terms_v3' });
    expect(value.language).to.equal('en');
    expect(value.agentLanguage).to.equal('en');
    expect(value.dynamicVariables).to.deep.equal({ customer_name: 'Ada', vip: true });
    expect(value.endpoint).to.deep.equal({
      serverUrl: SERVER, agentId: 'agent_1', socketUrl: 'wss://service.test/v1/voiceai/conversation?agent_id=agent_1', signature: '',
    });
    expect(controller.value, 'kept while nothing changed').to.deep.equal(value);
    expect(controller.value!.config).to.equal(value.config);
  });

  it('reads a private agent through its signed URL: the signature goes with the read, the socket is the signed URL', async () => {
    const signedUrl = 'wss://private.test/v1/voiceai/conversation?agent_id=agent_p&conversation_signature=sig%201';
    const { controller, network } = await mountConfig({ agentId: '', serverUrl: '', signedUrl });
    expect(network.last.url).to.equal('https://private.test/v1/convai/agents/agent_p/widget?conversation_signature=sig%201');
    await answer(controller, network, {}, 'agent_p');
    const { value } = await readValue(controller);
    expect(value.endpoint).to.deep.equal({ serverUrl: 'https://private.test', agentId: 'agent_p', socketUrl: signedUrl, signature: 'sig 1' });
  });

  const badAttributes: [string, Partial<WidgetConfigArgs>, string][] = [
    ['a missing agent-id', { agentId: '  ' }, 'the agent-id attribute is missing; the widget cannot start.'],
    ['a signed-url that is not ws(s)', { signedUrl: 'https://private.test/?agent_id=a&conversation_signature=s' }, 'signed-url must be a ws(s) URL with a conversation_signature'],
    ['a server-url that is not http(s)', { serverUrl: 'ftp://service.test' }, 'server-url must be http(s), not ftp:'],
  ];
  for (const [what, args, message] of badAttributes) {
    it(`ends in error without a read for ${what}, telling the console`, async () => {
      const { result, errors, warnings } = await captureConsole(() => mountConfig({ ...args, textContents: '{"main_label":"Hilfe?"}' }));
      expect(result.controller.status).to.equal('error');
      expect(result.controller.value).to.equal(null);
      expect(result.network.calls).to.deep.equal([]);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain(message);
      expect(warnings).to.deep.equal([]);
      expect(result.controller.texts.main_label, 'the text-contents attribute over the defaults').to.equal('Hilfe?');
      expect(result.controller.texts.start_call).to.equal('Start a call');
    });
  }

  /** What failed, the answer (given to every try), the console's words, and whether it is retried (4 tries in all). */
  const failedReads: [string, number, unknown, string, boolean][] = [
    ['an unknown agent (404)', 404, { detail: 'agent not found' }, 'answered HTTP 404: agent not found', false],
    ['a failing service (500)', 500, 'boom', 'answered HTTP 500: boom', true],
    ['a body that is not a configuration', 200, { agent_id: 'agent_1' }, 'expected {agent_id, widget_config: {...}}', false],
  ];
  for (const [what, status, body, message, retried] of failedReads) {
    it(`ends in error for ${what}, telling the console${retried ? ', after retrying it' : ''}`, async () => {
      const { controller, network } = await mountConfig();
      const answered = new Set<unknown>();
      const { errors, warnings } = await captureConsole(async () => {
        await until(() => {
          for (const call of network.calls.filter((c) => !answered.has(c))) answered.add(call) && call.respond(status, body);
          return controller.status === 'error';
        }, 'status error', 8000);
      });
      expect(network.calls, 'the reads made').to.have.length(retried ? 4 : 1);
      expect(warnings, 'a warning per retry').to.have.length(retried ? 3 : 0);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain(`could not read the widget configuration of agent "agent_1" from ${SERVER}`);
      expect(errors[0]).to.contain(message);
      expect(controller.retryable, 'the error state offers to try again').to.equal(retried);
      expect(controller.value).to.equal(null);
    });
  }

  it('a transient failure then an answer: ready after the retry, no error; retry() reads again at once', async () => {
    const { controller, network } = await mountConfig();
    const { errors, warnings } = await captureConsole(async () => {
      network.last.respond(503, 'busy');
      await until(() => network.calls.length === 2, 'the retry', 3000);
      expect(controller.status, 'still loading while it retries').to.equal('loading');
      network.last.respond(200, { agent_id: 'agent_1', widget_config: {} });
      await until(() => controller.status === 'ready', 'ready');
    });
    expect(errors).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    controller.retry();
    expect(network.calls, 'retry() reads at once').to.have.length(3);
  });

  it('starts a new read when agent-id changes and never applies the older one, even when its answer comes late', async () => {
    const { controller, network, update } = await mountConfig({}, new FakeFetch(false));
    const older = network.last;
    await update({ agentId: 'agent_2' });
    expect(network.calls).to.have.length(2);
    expect(older.signal.aborted).to.equal(true);
    expect(network.last.url).to.equal(`${SERVER}/v1/convai/agents/agent_2/widget`);
    expect(network.last.signal.aborted).to.equal(false);

    older.respond(200, full);
    await aTimeout(30);
    expect(controller.status, 'the aborted answer is dropped').to.equal('loading');
    await answer(controller, network, { variant: 'tiny' }, 'agent_2');
    const { value } = await readValue(controller);
    expect(value.config.variant).to.equal('tiny');
    expect(value.endpoint.agentId).to.equal('agent_2');
  });

  it('drops an aborted read quietly, and reads again only for agent-id, server-url or signed-url', async () => {
    const { controller, network, update } = await mountConfig();
    const { errors } = await captureConsole(async () => {
      await update({ serverUrl: 'https://other.test/' });
      await aTimeout(10);
    });
    expect(errors, 'an abort is not an error').to.deep.equal([]);
    expect(network.calls).to.have.length(2);
    expect(network.last.url).to.equal('https://other.test/v1/convai/agents/agent_1/widget');
    await answer(controller, network, full.widget_config);

    await update({ dynamicVariables: '{"order":42}', textContents: '{"main_label":"Hi"}', attributes: { variant: 'tiny' } });
    expect(network.calls, 'no read for other attributes').to.have.length(2);
    const { value } = await readValue(controller);
    expect(value.dynamicVariables).to.deep.equal({ order: 42 });
    expect(value.texts.main_label).to.equal('Hi');
    expect(value.config.variant).to.equal('tiny');
  });

  it('re-validates when an override attribute changes, but not for a text-contents change (no repeated warnings)', async () => {
    const { controller, network, update } = await mountConfig({ attributes: { variant: 'huge' } });
    await answer(controller, network, { first_message: 'Hello' });
    const first = await readValue(controller);
    expect(first.warnings).to.deep.equal([
      '[voice-agent-widget] attribute variant (widget_config.variant): expected one of tiny, compact, full (got "huge"); using the default.',
    ]);
    expect(first.value.config.variant).to.equal('compact');
    expect((await readValue(controller)).warnings, 'read again: not validated again').to.deep.equal([]);

    await update({ textContents: '{"start_call":"Call us"}' });
    const afterTexts = await readValue(controller);
    expect(afterTexts.warnings).to.deep.equal([]);
    expect(afterTexts.value.config, 'the same validated configuration').to.equal(first.value.config);
    expect(afterTexts.value.texts.start_call).to.equal('Call us');

    await update({ attributes: { variant: 'tiny' } });
    const afterVariant = await readValue(controller);
    expect(afterVariant.warnings).to.deep.equal([]);
    expect(afterVariant.value.config.variant).to.equal('tiny');
    expect(afterVariant.value.texts.start_call, 'labels kept').to.equal('Call us');
  });

  it('takes the browser language when the agent offers it (by primary tag), else the agent\'s', async () => {
    browserLanguages(['de-AT', 'en']);
    const { controller, network } = await mountConfig();
    await answer(controller, network, MULTILINGUAL);
    const { value } = await readValue(controller);
    expect(value.language).to.equal('de');
    expect(value.agentLanguage).to.equal('en');
    expect(value.texts.main_label).to.equal('Brauchen Sie Hilfe?');
  });

  it('chooseLanguage changes the labels and the terms, and the choice stays across a re-validation', async () => {
    const { host, controller, network, update } = await mountConfig();
    await answer(controller, network, MULTILINGUAL);
    const before = await readValue(controller);
    expect(before.value.language).to.equal('en');
    expect(before.value.terms).to.deep.equal({ html: '', text: 'Terms', key: 'terms_v1' });

    controller.chooseLanguage('de');
    expect(host.isUpdatePending, 'the host is asked to update').to.equal(true);
    const german = await readValue(controller);
    expect(german.value.language).to.equal('de');
    expect(german.value.texts.main_label).to.equal('Brauchen Sie Hilfe?');
    expect(german.value.terms).to.deep.equal({ html: '', text: 'AGB', key: 'agb_v1' });

    await update({ attributes: { variant: 'full' } });
    expect((await readValue(controller)).value.language).to.equal('de');
  });

  it('lets the language attribute win over the browser, then the visitor\'s choice, until the attribute changes', async () => {
    browserLanguages(['de-DE']);
    const { controller, network, update } = await mountConfig({ attributes: { language: 'fr' } });
    await answer(controller, network, MULTILINGUAL);
    const first = await readValue(controller);
    expect(first.value.language).to.equal('fr');
    expect(first.value.config.language).to.equal('fr');
    expect(first.value.agentLanguage, 'the agent\'s own language as the service sent it').to.equal('en');

    controller.chooseLanguage('de');
    expect((await readValue(controller)).value.language).to.equal('de');

    await update({ attributes: { language: 'en' } });
    expect((await readValue(controller)).value.language).to.equal('en');
  });

  it('aborts a pending read when the host leaves, without a console error, and reads again when it comes back', async () => {
    const { host, controller, network } = await mountConfig();
    const pending = network.last;
    const { result: reattach, errors } = await captureConsole(async () => {
      const back = detach(host);
      await aTimeout(10);
      return back;
    });
    expect(pending.signal.aborted).to.equal(true);
    expect(controller.status).to.equal('idle');
    expect(errors).to.deep.equal([]);

    await reattach();
    expect(network.calls).to.have.length(2);
    expect(controller.status).to.equal('loading');
    await answer(controller, network, full.widget_config);

    // Once read, leaving and coming back does not read again.
    await detach(host)();
    expect(network.calls).to.have.length(2);
    expect(controller.status).to.equal('ready');
  });
});
