import { css } from 'lit';
import type { Labels } from '../../config/types.js';

/** Options of `codeActions`. */
export interface CodeActionsOptions {
  /** A code block of a rendered agent reply. */
  pre: HTMLPreElement;
  texts: Labels;
  /** Copies the code (the clipboard controller: the one place that uses the clipboard). */
  onCopy: (code: string) => void;
}

/**
 * Buttons under a code block of an agent reply (`part="code-actions"`): `copy` (`part="button copy-code-button"`, the
 * clipboard), `download` (`part="button download-code-button"`, a .txt file), `wrap` (`part="button wrap-code-button"`,
 * long lines). Built as DOM, not a template, because the block lives inside the sanitised markdown (src/markdown is the
 * only place that makes HTML from strings); the bar is inserted after `pre`.
 */
export function codeActions({ pre, texts, onCopy }: CodeActionsOptions): void {
  const bar = document.createElement('div');
  bar.className = 'code-actions';
  bar.part.add('code-actions');
  const code = pre.textContent ?? '';
  const actions: [string, string, () => unknown][] = [
    [texts.copy, 'copy-code-button', () => onCopy(code)],
    [
      texts.download,
      'download-code-button',
      () => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([code], { type: 'text/plain' }));
        link.download = 'code.txt';
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href));
      },
    ],
    [texts.wrap, 'wrap-code-button', () => pre.classList.toggle('wrap')],
  ];
  for (const [label, part, action] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.part.add('button', part);
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
  .code-actions,
  .rating {
    display: flex;
    gap: 8px;
    font-size: 12px;
  }
`;
