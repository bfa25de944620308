/**
 * Source of the `capture` AudioWorkletProcessor (loaded from a Blob URL, or served as a file for a strict CSP; see
 * `audio-controller.ts`). Written as a string so that Vite and Web Test Runner load it alike.
 *
 * - Input: the microphone, any channel count, mixed down to mono (the mean of the channels), at the context's rate.
 * - Resamples to `processorOptions.rate` (Hz) by linear interpolation, keeping phase across render quanta
 *   (no low-pass filter: downsampling aliases what lies above the target's Nyquist rate).
 * - Every `rate / 50` target samples (20 ms) posts `{pcm, level, t}`, transferring `pcm`:
 *   `pcm` an `Int16Array` of 16-bit PCM (the platform's byte order: little-endian in every browser), or a
 *   `Uint8Array` of G.711 μ-law bytes when `processorOptions.ulaw`; `level` the chunk's RMS (0..1);
 *   `t` the context time (s) of the render quantum that completed the chunk.
 * - `{mute: boolean}` on the port: while muted, each chunk is silence (PCM 0, μ-law 0xFF) of the same size and
 *   cadence, with level 0, so the service's turn-taking keeps its clock. `processorOptions.mute` sets the start state.
 *
 * PROTOCOL.md section 3: `user_audio_chunk` carries these bytes in base64.
 */
export const captureWorkletSource = `registerProcessor('capture',class extends AudioWorkletProcessor{
constructor(o){super();o=o.processorOptions;this.s=sampleRate/o.rate;this.u=o.ulaw;this.m=o.mute;this.b=new Float32Array(Math.round(o.rate/50));this.i=this.t=this.l=0;this.port.onmessage=e=>this.m=e.data.mute}
v(c,k){let s=0;for(const a of c)s+=a[k];return s/c.length}
process([c]){const n=c.length&&c[0].length,b=this.b;let t=this.t;
for(;t<n-1;t+=this.s){const k=Math.floor(t),a=k<0?this.l:this.v(c,k);b[this.i++]=a+(this.v(c,k+1)-a)*(t-k);if(this.i==b.length)this.e()}
if(n){this.t=t-n;this.l=this.v(c,n-1)}return true}
e(){const b=this.b,N=b.length,o=this.u?new Uint8Array(N):new Int16Array(N);let q=0;
for(let j=0;j<N;j++){let s=this.m?0:Math.max(-1,Math.min(1,b[j]));q+=s*s;s=Math.min(s*32768,32767)|0;
if(this.u){const g=s<0?128:0;s=Math.min(g?-s:s,32635)+132;const x=24-Math.clz32(s);s=~(g|x<<4|s>>x+3&15)&255}o[j]=s}
this.i=0;this.port.postMessage({pcm:o,level:Math.sqrt(q/N),t:currentTime},[o.buffer])}})`;
