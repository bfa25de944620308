/**
 * Runs `leave` unless `host` is back in the document by the end of the task's microtasks: an element moved in the page
 * (removed and inserted again in one task, as a framework re-parenting it does, or `moveBefore`, which disconnects and
 * connects it in one go) keeps what its controllers hold (the conversation, its socket, a voice call); one that left
 * releases it within the removal's task (issue 21, item 3). Controllers call it from `hostDisconnected`.
 */
export function whenGone(host: { readonly isConnected: boolean }, leave: () => void): void {
  queueMicrotask(() => host.isConnected || leave());
}
