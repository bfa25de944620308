// The React 19 component of README's "React 19": no wrapper. React 19 sets a prop as a DOM property when the element
// has one (`dynamicVariables`, `variant`), else as an attribute (`agent-id`, `server-url`), and listens to
// `on<event-name>` props with addEventListener. The widget registers when this module is first imported, in the browser.
import 'voice-agent-widget/define.js';
import type {} from 'voice-agent-widget/react'; // typed <voice-agent-widget> in JSX (erased when bundling)
import type { AppProps } from '../types.js';

export function Widget({ serverUrl, agentId, customerName, variant, onMessage, onConversation }: AppProps) {
  return (
    <voice-agent-widget
      agent-id={agentId}
      server-url={serverUrl}
      variant={variant}
      dynamicVariables={{ customer_name: customerName }}
      onvoice-agent-message={(event) => onMessage(event.detail)}
      onvoice-agent-conversation={(event) => onConversation(event.detail)}
    />
  );
}
