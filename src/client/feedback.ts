/**
 * End-of-call feedback, posted to the service (PROTOCOL.md section 4). Apart from rest.ts: only the conversation posts
 * it, so in the script-tag build it loads with the conversation chunk, not in the launcher's first script.
 */
import { feedbackPath } from './paths.js';
import { requestJson, type RequestOptions } from './rest.js';

/** The body of end-of-call feedback (PROTOCOL.md section 4). `rating` is an integer from 1 to 5. */
export type ConversationFeedback = { rating: number; comment?: string } | { feedback: 'like' | 'dislike' };

/**
 * Posts feedback on a conversation: `POST {serverUrl}/v1/voiceai/conversations/{conversationId}/feedback`
 * (PROTOCOL.md section 4). No API key is sent.
 * @throws ServiceHttpError (422 bad body, 404 unknown conversation), ServiceNetworkError
 */
export async function postConversationFeedback(
  serverUrl: string,
  conversationId: string,
  feedback: ConversationFeedback,
  options: RequestOptions = {},
): Promise<void> {
  await requestJson(
    serverUrl + feedbackPath(conversationId),
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(feedback) },
    options,
  );
}
