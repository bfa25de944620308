// The custom elements manifest, custom-elements.json: `npm run analyze` (also run by `npm run build`).
// Read from the element's JSDoc (@csspart, @cssprop, @fires, @slot) and its `@property()` fields with their JSDoc.

/**
 * What the analyzer (0.11) does not do for this element: `customElements.define(TAG_NAME, ...)` names the tag through
 * a `const`; the analyzer takes the identifier's text as the tag. A `const` holding a string literal in the same file
 * is resolved to its value. (Attributes and properties come from the element's `@property()` fields and their JSDoc.)
 */
function constTagName() {
  return {
    name: 'voice-agent-widget: const tag names',
    analyzePhase({ ts, node, moduleDoc }) {
      // At the `customElements.define` node itself, where the analyzer has just added the definition.
      const call = node.parent;
      if (ts.isPropertyAccessExpression(node) && call && ts.isCallExpression(call) && call.expression === node && node.getText().replace(/^(window|globalThis)\./, '') === 'customElements.define') {
        const [tag] = call.arguments;
        if (!tag || !ts.isIdentifier(tag)) return;
        let value = null;
        const visit = (child) => {
          if (ts.isVariableDeclaration(child) && child.name.getText() === tag.text && child.initializer && ts.isStringLiteralLike(child.initializer)) {
            value = child.initializer.text;
          } else ts.forEachChild(child, visit);
        };
        visit(node.getSourceFile());
        const definition = moduleDoc.exports?.find((e) => e.kind === 'custom-element-definition' && e.name === tag.text);
        if (definition && value) definition.name = value;
      }
    },
  };
}

export default {
  globs: ['src/**/*.ts'],
  exclude: ['**/*.test.ts', 'test/**', 'dist/**'],
  outdir: '.',
  litelement: true,
  // package.json names the file itself ("customElements"); the analyzer does not rewrite package.json.
  packagejson: false,
  plugins: [constTagName()],
};
