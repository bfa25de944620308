/**
 * Source of the `playback` AudioWorkletProcessor (one output, mono). Written as a string so that Vite and Web Test
 * Runner load it alike.
 *
 * - A jitter buffer: a FIFO of `Float32Array` chunks fed by `{samples}` messages, samples at the context's rate
 *   (the main thread resamples, see `createResampler`). The agent's audio arrives faster than real time, so the
 *   FIFO grows without bound rather than overflowing a fixed ring; it plays as soon as it holds anything.
 * - `'clear'` empties it at once (the next render quantum is silent: interruption, PROTOCOL.md section 3).
 * - Outputs silence when empty.
 * - Posts `{state: 'playing' | 'drained', t}` when it starts giving out samples or runs dry (or is cleared); `t`
 *   is the context time (s) of that render quantum, so `playing`'s `t` is when the first sample went out.
 * - Posts `{level}` (RMS, 0..1) about every 20 ms while there is sound, and once 0 after it.
 */
export const playbackWorkletSource = `registerProcessor('playback',class extends AudioWorkletProcessor{
constructor(){super();this.q=[];this.o=this.p=this.a=this.n=this.l=0;this.port.onmessage=({data:d})=>{if(d=='clear'){this.q=[];this.o=0;this.s(0)}else this.q.push(d.samples)}}
s(p){if(p!=this.p)this.port.postMessage({state:(this.p=p)?'playing':'drained',t:currentTime})}
process(_,[[y]]){const q=this.q,N=y.length;let j=0;
while(j<N&&q.length){const x=q[0],k=Math.min(N-j,x.length-this.o);y.set(x.subarray(this.o,this.o+=k),j);j+=k;if(this.o==x.length)q.shift(),this.o=0}
y.fill(0,j);this.s(j?1:0);for(const v of y)this.a+=v*v;
if((this.n+=N)>=sampleRate/50){const l=Math.sqrt(this.a/this.n);if(l||this.l)this.port.postMessage({level:l});this.l=l;this.a=this.n=0}return true}})`;
