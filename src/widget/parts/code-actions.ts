import { css } from 'lit';
import type { Labels } from '../../config/types.js';

/** Options of `codeActions`. */
export interface CodeActionsOptions {
  /** A code block of a rendered agent reply. */
  pre: HTMLPreElement;
  texts: Labels;
}

/**
 * Buttons under a code block of an agent reply (`part="code-actions"`): `copy` (the clipboard), `download` (a .txt
 * file), `wrap` (long lines). Built as DOM, not a template, because the block lives inside the sanitised markdown
 * (src/markdown is the only place that makes HTML from strings); the bar is inserted after `pre`.
 */
export function codeActions({ pre, texts }: CodeActionsOptions): void {
  const bar = document.createElement('div');
  bar.className = 'code-actions';
  bar.part.add('code-actions');
  const code = pre.textContent ?? '';
  const actions: [string, () => unknown][] = [
    [texts.copy, () => navigator.clipboard.writeText(code).catch(() => {})],
    [
      texts.download,
      () => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([code], { type: 'text/plain' }));
        link.download = 'code.txt';
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href));
      },
    ],
    [texts.wrap, () => pre.classList.toggle('wrap')],
  ];
  for (const [label, action] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.textContent = label;
    button.addEventListener('click', action);
    bar.append(button);
  }
  pre.after(bar);
}

export const codeActionsStyles = css`
  pre {
    overflow-x: auto;
  }
  .wrap {
    white-space: pre-wrap;
  }
  .code-actions {
    display: flex;
    gap: 8px;
    font-size: 12px;
  }
`;
