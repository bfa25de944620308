/**
 * The messages of the conversation socket (PROTOCOL.md section 3) as types, named and shaped as on the wire,
 * and the one place that reads an untrusted server frame. A frame whose known type lacks a required field is
 * refused (null); an unknown type comes back as `{type}` alone and is ignored by the session.
 */

/** Audio formats of PROTOCOL.md section 3: PCM 16-bit little-endian mono at the named rate (Hz), or 8-bit μ-law at 8 kHz. */
export type AudioFormat = 'pcm_8000' | 'pcm_16000' | 'pcm_22050' | 'pcm_24000' | 'pcm_44100' | 'pcm_48000' | 'ulaw_8000';

/** `conversation_config_override` of the initiation (SERVICE-INTERFACE.md 2.8, "Initiation client data"). */
export interface ConversationConfigOverride {
  agent?: { first_message?: string; language?: string; prompt?: { prompt?: string } };
  tts?: { voice_id?: string; stability?: number; speed?: number; similarity_boost?: number };
  conversation?: { text_only?: boolean };
}

/** What the client sends first, besides `type` and `source_info` (PROTOCOL.md section 3, "initiation"). */
export interface ConversationInitiation {
  conversation_config_override?: ConversationConfigOverride;
  dynamic_variables?: Record<string, string | number | boolean>;
  user_id?: string;
  custom_llm_extra_body?: Record<string, unknown>;
}

/** Server → client messages (PROTOCOL.md section 3), keyed by `type`. `event_id`s are integers. */
export interface ServerMessageMap {
  conversation_initiation_metadata: {
    conversation_initiation_metadata_event: { conversation_id: string; agent_output_audio_format?: AudioFormat; user_input_audio_format?: AudioFormat };
  };
  agent_response: { agent_response_event: { agent_response: string; event_id: number } };
  agent_chat_response_part: { text_response_part: { text?: string; type: 'start' | 'delta' | 'stop'; event_id: number } };
  agent_response_correction: {
    agent_response_correction_event: { original_agent_response?: string; corrected_agent_response: string; event_id: number };
  };
  user_transcript: { user_transcription_event: { user_transcript: string; event_id: number } };
  tentative_user_transcript: { user_transcription_event: { user_transcript: string; event_id: number } };
  audio: { audio_event: { audio_base_64: string; event_id: number; alignment?: { chars: string[]; char_start_times_ms: number[]; char_durations_ms: number[] } } };
  interruption: { interruption_event: { event_id: number } };
  ping: { ping_event: { event_id: number; ping_ms?: number | null } };
  client_tool_call: { client_tool_call: { tool_name: string; tool_call_id: string; parameters?: Record<string, unknown>; event_id: number } };
  /** `vad_score` from 0 to 1 */
  vad_score: { vad_score_event: { vad_score: number } };
  agent_typing: { agent_typing_event: { is_typing: boolean } };
  error: { error_event: { code?: number; message?: string } };
}
export type ServerMessageType = keyof ServerMessageMap;
/** One server message: `{type, ...payload}`. */
export type ServerMessage = { [K in ServerMessageType]: { type: K } & ServerMessageMap[K] }[ServerMessageType];

/** Per known type: the payload member and its required fields with their JSON types. */
const SHAPES: Record<ServerMessageType, [string, ...string[]]> = {
  conversation_initiation_metadata: ['conversation_initiation_metadata_event', 'conversation_id:string'],
  agent_response: ['agent_response_event', 'agent_response:string'],
  agent_chat_response_part: ['text_response_part', 'type:string'],
  agent_response_correction: ['agent_response_correction_event', 'corrected_agent_response:string'],
  user_transcript: ['user_transcription_event', 'user_transcript:string'],
  tentative_user_transcript: ['user_transcription_event', 'user_transcript:string'],
  audio: ['audio_event', 'audio_base_64:string'],
  interruption: ['interruption_event', 'event_id:number'],
  ping: ['ping_event', 'event_id:number'],
  client_tool_call: ['client_tool_call', 'tool_name:string', 'tool_call_id:string'],
  vad_score: ['vad_score_event', 'vad_score:number'],
  agent_typing: ['agent_typing_event', 'is_typing:boolean'],
  error: ['error_event'],
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads one text frame (PROTOCOL.md section 3). Returns null when the frame is not a JSON object with a string
 * `type`, or a known type misses a required field or has a non-numeric `event_id`; `{type}` for an unknown type.
 */
export function parseServerMessage(frame: unknown): ServerMessage | { type: string; unknown: true } | null {
  if (typeof frame !== 'string') return null;
  let data: unknown;
  try {
    data = JSON.parse(frame);
  } catch {
    return null;
  }
  if (!isObject(data) || typeof data['type'] !== 'string') return null;
  const shape = SHAPES[data['type'] as ServerMessageType];
  if (!Object.hasOwn(SHAPES, data['type']) || !shape) return { type: data['type'], unknown: true };
  const [member, ...fields] = shape;
  const payload = data[member];
  if (!isObject(payload)) return null;
  if ('event_id' in payload && !Number.isFinite(payload['event_id'])) return null;
  for (const field of fields) {
    const [name, kind] = field.split(':') as [string, string];
    if (typeof payload[name] !== kind || (kind === 'number' && !Number.isFinite(payload[name]))) return null;
  }
  return data as unknown as ServerMessage;
}
