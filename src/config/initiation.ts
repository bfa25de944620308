/**
 * The conversation initiation (PROTOCOL.md section 3, "initiation"; the overrides of SERVICE-INTERFACE.md 2.8) as a
 * pure function of the configuration, the element's conversation attributes and the conversation language.
 */
import type { ConversationConfigOverride, ConversationInitiation } from '../client/protocol.js';
import { preview } from '../internal/console.js';
import type { BeforeStartDetail, ClientTool } from '../events/before-start.js';
import * as log from '../internal/console.js';
import { isRecord } from '../internal/record.js';
import { checkDynamicVariables, parseBooleanAttribute, type AttributeValues, type DynamicVariables } from './attributes.js';
import { MAX_LONG_TEXT_LENGTH, MAX_PROMPT_LENGTH, MAX_TEXT_LENGTH } from './defaults.js';
import { presetFor } from './texts.js';
import type { WidgetConfig } from './types.js';
import { normalizeLanguage } from './validate.js';

/** What the initiation is made of. Every string attribute is untrusted (`null` when absent). */
export interface InitiationInput {
  /** The validated configuration, attributes laid over it. */
  config: WidgetConfig;
  /** The agent's own language as the service sent it (`widget_config.language`, normalised; `en` when none). */
  agentLanguage: string;
  /** The conversation language chosen (attribute `language`, the visitor's choice or the browser's). */
  language: string;
  /** `override-first-message`, `override-language`, `override-prompt`, `override-voice-id`, `override-text-only`, `user-id`. */
  attributes: AttributeValues;
  /** The parsed `dynamic-variables`. */
  dynamicVariables: DynamicVariables;
  /** A voice call (`text_only: false`) rather than a text conversation (`text_only: true`); default false. */
  voice?: boolean;
}

/**
 * The initiation of a conversation. The agent's own language and first message need no override: a language and the
 * preset's first message are sent only when `language` differs from `agentLanguage`; the `override-*` attributes win.
 * `conversation.text_only` is `override-text-only` when it is true or false, else false for a voice call and true for a
 * text conversation (PROTOCOL.md section 3, "Voice").
 * Never throws: an attribute that is too long (`override-first-message` `MAX_LONG_TEXT_LENGTH`, `override-prompt`
 * `MAX_PROMPT_LENGTH`, `override-language` 20 and a language tag, `override-voice-id` 200, `user-id` 256 characters,
 * others `MAX_TEXT_LENGTH`) or not valid is reported through `report` and not sent.
 */
export function conversationInitiation(input: InitiationInput, report: (message: string) => void): ConversationInitiation {
  const { config, agentLanguage, language: chosen, attributes, dynamicVariables, voice = false } = input;
  /** An attribute, or null when absent or refused (reported): too long, or failing `check`. */
  const attr = (name: keyof AttributeValues, max = MAX_TEXT_LENGTH, check = (_: string): unknown => true): string | null => {
    const value = attributes[name] ?? null;
    if (value === null || (value.length <= max && check(value))) return value;
    report(`attribute ${name}=${preview(value)} is not valid (at most ${max} characters${name.endsWith('language') ? ', a language tag' : ''}); not sent.`);
    return null;
  };
  const agent: NonNullable<ConversationConfigOverride['agent']> = {};
  const differs = chosen !== agentLanguage;
  const overrideLanguage = attr('override-language', 20, normalizeLanguage);
  const language = overrideLanguage ? normalizeLanguage(overrideLanguage) : differs ? chosen : null;
  if (language) agent.language = language;
  const firstMessage = attr('override-first-message', MAX_LONG_TEXT_LENGTH) ?? (differs ? presetFor(config, chosen)?.first_message : undefined);
  if (firstMessage) agent.first_message = firstMessage;
  const prompt = attr('override-prompt', MAX_PROMPT_LENGTH);
  if (prompt) agent.prompt = { prompt };
  const override: ConversationConfigOverride = {
    conversation: { text_only: parseBooleanAttribute('override-text-only', attr('override-text-only'), report) ?? !voice },
  };
  if (Object.keys(agent).length) override.agent = agent;
  const voiceId = attr('override-voice-id', 200);
  if (voiceId) override.tts = { voice_id: voiceId };
  const initiation: ConversationInitiation = { conversation_config_override: override, dynamic_variables: dynamicVariables };
  const userId = attr('user-id', 256);
  if (userId) initiation.user_id = userId;
  return initiation;
}

/**
 * What a page's `voice-agent-before-start` handler left in the event's `detail`, checked (the page is untrusted too):
 * dynamic variables as `checkDynamicVariables` keeps them, the overrides when they are an object (else none), the
 * client tools that are functions. What is dropped is reported in the console. Never throws.
 */
export function readBeforeStart(detail: BeforeStartDetail): { dynamicVariables: DynamicVariables; overrides: ConversationConfigOverride; clientTools: Record<string, ClientTool> } {
  const source = 'voice-agent-before-start detail';
  const dynamicVariables = isRecord(detail.dynamicVariables) ? checkDynamicVariables(`${source}.dynamicVariables`, detail.dynamicVariables) : {};
  if (!isRecord(detail.overrides)) log.warn(`${source}.overrides must be an object (got ${preview(detail.overrides)}); no overrides sent.`);
  const clientTools: Record<string, ClientTool> = {};
  for (const [name, tool] of Object.entries(isRecord(detail.clientTools) ? detail.clientTools : {})) {
    if (typeof tool === 'function') clientTools[name] = tool as ClientTool;
    else log.warn(`${source}.clientTools.${name} must be a function; left out.`);
  }
  return { dynamicVariables, overrides: isRecord(detail.overrides) ? (detail.overrides as ConversationConfigOverride) : {}, clientTools };
}
