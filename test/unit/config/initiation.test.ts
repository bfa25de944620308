import { expect } from '@open-wc/testing';
import type { AttributeValues, DynamicVariables } from '../../../src/config/attributes.js';
import { MAX_LONG_TEXT_LENGTH, MAX_PROMPT_LENGTH } from '../../../src/config/defaults.js';
import { conversationInitiation } from '../../../src/config/initiation.js';
import { resolveWidgetConfig, type WidgetConfig } from '../../../src/config/index.js';

const CONFIG: WidgetConfig = resolveWidgetConfig(
  { language: 'en', first_message: 'Hello!', language_presets: { de: { first_message: 'Hallo!' } } },
  () => {
    throw new Error('the test configuration is valid');
  },
  location.href,
);

/** The initiation for the chosen `language` (the agent speaks `en`) and `attributes`, with what was reported. */
function initiate(attributes: AttributeValues = {}, language = 'en', dynamicVariables: DynamicVariables = {}) {
  const reports: string[] = [];
  const initiation = conversationInitiation({ config: CONFIG, agentLanguage: 'en', language, attributes, dynamicVariables }, (m) => reports.push(m));
  return { initiation, override: initiation.conversation_config_override!, reports };
}

describe('conversationInitiation', () => {
  it('by default asks for text only and overrides nothing of the agent when the language is the agent\'s', () => {
    const { initiation, reports } = initiate();
    expect(initiation).to.deep.equal({ conversation_config_override: { conversation: { text_only: true } }, dynamic_variables: {} });
    expect(reports).to.deep.equal([]);
  });

  it('sends the language and the preset\'s first message when the language differs from the agent\'s', () => {
    expect(initiate({}, 'de').override.agent).to.deep.equal({ language: 'de', first_message: 'Hallo!' });
    expect(initiate({}, 'pt-br').override.agent, 'no preset: the language alone').to.deep.equal({ language: 'pt-br' });
  });

  it('sends each override-* attribute, the attributes winning over the language\'s defaults', () => {
    const { override, reports } = initiate(
      {
        'override-first-message': 'Hi {{name}}',
        'override-language': 'FR',
        'override-prompt': 'Be brief.',
        'override-voice-id': 'voice_42',
        'override-text-only': 'false',
      },
      'de',
    );
    expect(override).to.deep.equal({
      conversation: { text_only: false },
      agent: { language: 'fr', first_message: 'Hi {{name}}', prompt: { prompt: 'Be brief.' } },
      tts: { voice_id: 'voice_42' },
    });
    expect(reports).to.deep.equal([]);
  });

  it('reads override-text-only as a boolean attribute: present, true, false; anything else reported', () => {
    expect(initiate({ 'override-text-only': '' }).override.conversation).to.deep.equal({ text_only: true });
    expect(initiate({ 'override-text-only': 'TRUE' }).override.conversation).to.deep.equal({ text_only: true });
    const maybe = initiate({ 'override-text-only': 'maybe' });
    expect(maybe.override.conversation).to.deep.equal({ text_only: true });
    expect(maybe.reports).to.deep.equal(['attribute override-text-only="maybe" is not true or false; ignored.']);
  });

  it('reports a too long or invalid attribute and does not send it', () => {
    const { initiation, override, reports } = initiate(
      {
        'override-first-message': 'x'.repeat(MAX_LONG_TEXT_LENGTH + 1),
        'override-language': 'not a language',
        'override-prompt': 'p'.repeat(MAX_PROMPT_LENGTH + 1),
        'override-voice-id': 'v'.repeat(201),
        'user-id': 'u'.repeat(257),
      },
      'de',
    );
    expect(override).to.deep.equal({ conversation: { text_only: true }, agent: { language: 'de', first_message: 'Hallo!' } });
    expect(initiation).to.not.have.property('user_id');
    expect(reports).to.have.length(5);
    expect(reports[0]).to.match(/^attribute override-language="not a language" is not valid \(at most 20 characters, a language tag\); not sent\.$/);
    expect(reports[1]).to.match(new RegExp(`^attribute override-first-message="x{56}\\.\\.\\. is not valid \\(at most ${MAX_LONG_TEXT_LENGTH} characters\\); not sent\\.$`));
    expect(reports[2]).to.contain(`override-prompt`).and.contain(`at most ${MAX_PROMPT_LENGTH} characters`);
    expect(reports[3]).to.contain('override-voice-id').and.contain('at most 200 characters');
    expect(reports[4]).to.contain('user-id').and.contain('at most 256 characters');
  });

  it('accepts values at their limits', () => {
    const { initiation, reports } = initiate({ 'override-voice-id': 'v'.repeat(200), 'user-id': 'u'.repeat(256) });
    expect(reports).to.deep.equal([]);
    expect(initiation.conversation_config_override!.tts).to.deep.equal({ voice_id: 'v'.repeat(200) });
    expect(initiation.user_id).to.have.length(256);
  });

  it('sends user_id and passes the dynamic variables through', () => {
    const variables = { customer_name: 'Ada', order: 42, vip: true };
    const { initiation } = initiate({ 'user-id': 'visitor-7' }, 'en', variables);
    expect(initiation.user_id).to.equal('visitor-7');
    expect(initiation.dynamic_variables).to.deep.equal({ customer_name: 'Ada', order: 42, vip: true });
  });

  it('sends override-language even when it is the agent\'s, and no first message for it', () => {
    expect(initiate({ 'override-language': 'en' }).override.agent).to.deep.equal({ language: 'en' });
  });
});
