// A correct React 19 use of <voice-agent-widget>, typed by `import type {} from 'voice-agent-widget/react'`: attributes
// (kebab-case), properties (camelCase, objects and unions), events as React 19 `on<event>` props. Compiles with 0 errors.
import type {} from 'voice-agent-widget/react';
import type { VoiceAgentStatusEvent, VoiceAgentWidget } from 'voice-agent-widget';
import { useRef, useState } from 'react';

export function Support({ userId }: { userId: string }) {
  const widget = useRef<VoiceAgentWidget>(null);
  const [lines, setLines] = useState<string[]>([]);
  const onStatus = (event: VoiceAgentStatusEvent) => console.log(event.detail.status, event.detail.turn);
  return (
    <voice-agent-widget
      ref={widget}
      agent-id="agent_demo_support"
      server-url="https://voice.example"
      variant="tiny"
      placement="bottom-right"
      dynamicVariables={{ a: 1, name: 'Ada', vip: true }}
      textContents={{ start_chat: 'Chat with us', dismiss: 'Close' }}
      defaultExpanded={false}
      transcript
      language={null}
      userId={userId}
      override-first-message="Hello!"
      clientTools={{ lookup: (parameters) => String(parameters.id) }}
      onvoice-agent-message={(event) => setLines((all) => [...all, `${event.detail.source}: ${event.detail.text}`])}
      onvoice-agent-error={(event) => console.warn(event.detail.code, event.detail.message, event.detail.serviceCode)}
      onvoice-agent-before-start={(event) => {
        event.detail.dynamicVariables.page = 'pricing';
        if (event.detail.mode === 'voice') event.preventDefault();
      }}
      onvoice-agent-status={onStatus}
      className="support"
      key="support"
    >
      {lines.length}
    </voice-agent-widget>
  );
}

// HTMLElementTagNameMap: the DOM knows the element's class.
export const created: VoiceAgentWidget = document.createElement('voice-agent-widget');
created.variant = 'full';

// Server-rendered (Next.js): the data as attributes, the JSON attribute as a string (README, Next.js).
export function ServerRendered({ name }: { name: string }) {
  return <voice-agent-widget agent-id="agent_demo_support" dynamic-variables={JSON.stringify({ customer_name: name })} default-expanded />;
}
