/**
 * A scripted stand-in for the browser's WebSocket: records what the session sends; the test plays the service.
 * Used by the unit tests of the conversation session and of its controller (DESIGN.md rule 11).
 */
export class FakeSocket extends EventTarget {
  /** Every socket made, oldest first. */
  static made: FakeSocket[] = [];
  static get last(): FakeSocket {
    const socket = FakeSocket.made.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closedWith: number | null = null;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;

  constructor(readonly url: string) {
    super();
    FakeSocket.made.push(this);
  }

  send(frame: string): void {
    if (this.readyState !== 1) throw new Error('send before open');
    this.sent.push(JSON.parse(frame));
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  serverSends(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: typeof message === 'string' ? message : JSON.stringify(message) }));
  }
  serverCloses(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code, reason }));
  }
  /** The frames sent of one `type`. */
  sentOfType(type: string): Record<string, unknown>[] {
    return this.sent.filter((frame) => frame['type'] === type);
  }
}
