// The custom elements manifest, custom-elements.json: `npm run analyze` (also run by `npm run build`).
// Read from the element's JSDoc (@attr, @csspart, @cssprop, @fires, @slot) and its `static properties`.

/**
 * Two things the analyzer's Lit support (0.11) does not do for this element:
 * - `static properties` entries with `state: true` are internal state, not attributes; the analyzer lists them as
 *   attributes. They are removed from `attributes` (the fields stay, private, in `members`).
 * - `customElements.define(TAG_NAME, ...)`: the analyzer takes the identifier's text as the tag. A `const` holding a
 *   string literal in the same file is resolved to its value.
 */
function litStaticStateAndTagName() {
  return {
    name: 'voice-agent-widget: state properties and const tag names',
    analyzePhase({ ts, node, moduleDoc }) {
      if (ts.isClassDeclaration(node) && node.name) {
        const classDoc = moduleDoc.declarations?.find((declaration) => declaration.name === node.name.text);
        const properties = node.members.find(
          (member) => ts.isPropertyDeclaration(member) && member.name.getText() === 'properties' && member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword),
        );
        if (!classDoc || !properties?.initializer || !ts.isObjectLiteralExpression(properties.initializer)) return;
        for (const property of properties.initializer.properties) {
          if (!ts.isPropertyAssignment(property) || !ts.isObjectLiteralExpression(property.initializer)) continue;
          const isState = property.initializer.properties.some(
            (option) => ts.isPropertyAssignment(option) && option.name.getText() === 'state' && option.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
          if (!isState) continue;
          const name = property.name.getText();
          classDoc.attributes = (classDoc.attributes ?? []).filter((attribute) => attribute.fieldName !== name);
          const member = classDoc.members?.find((m) => m.name === name);
          if (member) delete member.attribute;
        }
      }
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
  plugins: [litStaticStateAndTagName()],
};
