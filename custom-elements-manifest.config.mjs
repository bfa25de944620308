// The custom elements manifest, custom-elements.json: `npm run analyze` (also run by `npm run build`).
// Read from the element's JSDoc (@csspart, @cssprop, @fires, @slot), its `static properties` and its fields' JSDoc.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the analyzer (0.11) does not do for this element: `customElements.define(TAG_NAME, ...)` names the tag through
 * a `const`; the analyzer takes the identifier's text as the tag. A `const` holding a string literal in the same file,
 * or in the file it is imported from by a relative path (`import { TAG_NAME } from './tag-name.js'`), is resolved to
 * its value. (Attributes and properties come from the element's `static properties` and its fields' JSDoc.)
 */
function constTagName() {
  /** The string literal a `const name = '...'` of `sourceFile` holds, or null. */
  const constString = (ts, sourceFile, name) => {
    let value = null;
    const visit = (child) => {
      if (ts.isVariableDeclaration(child) && child.name.getText(sourceFile) === name && child.initializer && ts.isStringLiteralLike(child.initializer)) {
        value = child.initializer.text;
      } else ts.forEachChild(child, visit);
    };
    visit(sourceFile);
    return value;
  };
  /** The same, for a name `sourceFile` imports from a relative module (`./tag-name.js` is read from `./tag-name.ts`). */
  const importedConstString = (ts, sourceFile, name) => {
    for (const statement of sourceFile.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      const binding = bindings && ts.isNamedImports(bindings) ? bindings.elements.find((e) => e.name.text === name) : undefined;
      const specifier = statement.moduleSpecifier.text;
      if (!binding || !specifier.startsWith('.')) continue;
      const file = path.resolve(path.dirname(sourceFile.fileName), specifier.replace(/\.js$/, '.ts'));
      if (!existsSync(file)) return null;
      const imported = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      return constString(ts, imported, (binding.propertyName ?? binding.name).text);
    }
    return null;
  };

  return {
    name: 'voice-agent-widget: const tag names',
    analyzePhase({ ts, node, moduleDoc }) {
      // At the `customElements.define` node itself, where the analyzer has just added the definition.
      const call = node.parent;
      if (ts.isPropertyAccessExpression(node) && call && ts.isCallExpression(call) && call.expression === node && node.getText().replace(/^(window|globalThis)\./, '') === 'customElements.define') {
        const [tag] = call.arguments;
        if (!tag || !ts.isIdentifier(tag)) return;
        const value = constString(ts, node.getSourceFile(), tag.text) ?? importedConstString(ts, node.getSourceFile(), tag.text);
        const definition = moduleDoc.exports?.find((e) => e.kind === 'custom-element-definition' && e.name === tag.text);
        if (definition && value) definition.name = value;
      }
    },
  };
}

/**
 * What the analyzer (0.11) gets wrong about Lit's `static properties`: an entry `{ state: true }` is internal reactive
 * state, not an attribute. Such entries are found in the class's `static properties` object and taken out of the
 * element's attributes (their fields stay private members).
 */
function litStateProperties() {
  /** class name -> names of its state properties */
  const states = new Map();
  return {
    name: 'voice-agent-widget: lit state properties',
    analyzePhase({ ts, node }) {
      if (!ts.isPropertyDeclaration(node) || node.name.getText() !== 'properties' || !node.initializer || !ts.isObjectLiteralExpression(node.initializer)) return;
      const className = node.parent?.name?.getText();
      const names = node.initializer.properties
        .filter((p) => ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer)
          && p.initializer.properties.some((q) => ts.isPropertyAssignment(q) && q.name.getText() === 'state' && q.initializer.kind === ts.SyntaxKind.TrueKeyword))
        .map((p) => p.name.getText());
      if (className && names.length) states.set(className, new Set(names));
    },
    moduleLinkPhase({ moduleDoc }) {
      for (const declaration of moduleDoc.declarations ?? []) {
        const names = states.get(declaration.name);
        if (!names) continue;
        declaration.attributes = (declaration.attributes ?? []).filter((a) => !names.has(a.fieldName));
        for (const member of declaration.members ?? []) if (names.has(member.name)) delete member.attribute;
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
  plugins: [constTagName(), litStateProperties()],
};
