// The React app rendered on a server (Node, no DOM): react-dom/server's renderToString, as a framework's server build
// does. The widget's define.js is imported on the way (server-rendered-widget.tsx) and registers nothing there.
import { renderToString } from 'react-dom/server';
import type { AppProps } from '../types.js';
import { ServerRenderedApp } from './app.js';

export function render(props: Pick<AppProps, 'serverUrl' | 'agentId' | 'customerName' | 'variant'>): string {
  return renderToString(<ServerRenderedApp {...props} onMessage={() => {}} onConversation={() => {}} onCommit={() => {}} />);
}
