'use client';
// The client component of README's "Next.js (App Router)": rendered on the server and hydrated in the browser.
// - define.js is imported at module level: on the server it registers nothing (no DOM); in the browser it registers
//   the element before React hydrates, and the server-rendered <voice-agent-widget agent-id> upgrades.
// - React 19's hydration does not apply a custom element's properties nor its on<event> props (they only take effect
//   at the next client render; facebook/react#35446): so the dynamic variables go as the `dynamic-variables`
//   attribute (a JSON string, in the server's HTML too) and the listeners are added in an effect.
import { useEffect, useRef } from 'react';
import 'voice-agent-widget/define.js';
import type { VoiceAgentWidget } from 'voice-agent-widget';
import type {} from 'voice-agent-widget/react';
import type { AppProps } from '../types.js';

export function ServerRenderedWidget({ serverUrl, agentId, customerName, variant, onMessage, onConversation }: AppProps) {
  const ref = useRef<VoiceAgentWidget>(null);
  useEffect(() => {
    const widget = ref.current!;
    const message = (event: HTMLElementEventMap['voice-agent-message']) => onMessage(event.detail);
    const conversation = (event: HTMLElementEventMap['voice-agent-conversation']) => onConversation(event.detail);
    widget.addEventListener('voice-agent-message', message);
    widget.addEventListener('voice-agent-conversation', conversation);
    return () => {
      widget.removeEventListener('voice-agent-message', message);
      widget.removeEventListener('voice-agent-conversation', conversation);
    };
  }, [onMessage, onConversation]);
  return (
    <voice-agent-widget
      ref={ref}
      agent-id={agentId}
      server-url={serverUrl}
      variant={variant}
      dynamic-variables={JSON.stringify({ customer_name: customerName })}
    />
  );
}
