// @ts-check

/**
 * @typedef {{
 *   node: import('estree').Node,
 *   source: string,
 *   names: readonly string[],
 *   typeOnly: boolean,
 *   report: (data: Record<string, string>) => void,
 * }} ImportSeen
 */

/**
 * An ESLint rule that judges every import of a file (static, re-export, dynamic with a literal) the same way:
 * `scope` decides once per file whether the rule applies (returning what `judge` needs), `judge` sees each import
 * with the names it brings in ('*' for a namespace, a re-export or a side-effect import) and whether it is
 * type-only, and reports with `message`'s placeholders.
 *
 * @template S
 * @param {{ message: string, scope: (file: string, root: string) => S | undefined, judge: (state: S, seen: ImportSeen) => void }} spec
 * @returns {import('eslint').Rule.RuleModule}
 */
export function importRule(spec) {
  return {
    meta: { type: 'problem', schema: [], messages: { bad: spec.message } },
    create(context) {
      const state = spec.scope(context.physicalFilename, context.cwd)
      if (state === undefined) return {}
      /** @param {import('estree').Node} node @param {unknown} source @param {readonly string[]} names @param {boolean} typeOnly */
      const seen = (node, source, names, typeOnly) => {
        if (typeof source !== 'string') return
        const report = (/** @type {Record<string, string>} */ data) =>
          context.report({ node, messageId: 'bad', data })
        spec.judge(state, { node, source, names, typeOnly, report })
      }
      return {
        ImportDeclaration: (node) => {
          const specifiers = /** @type {any[]} */ (node.specifiers)
          const names =
            specifiers.length === 0
              ? ['*']
              : specifiers.map((s) =>
                  s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : '*',
                )
          const typeOnly =
            /** @type {any} */ (node).importKind === 'type' ||
            (specifiers.length > 0 &&
              specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'))
          seen(node, node.source.value, names, typeOnly)
        },
        ExportNamedDeclaration: (node) =>
          node.source &&
          seen(node, node.source.value, ['*'], /** @type {any} */ (node).exportKind === 'type'),
        ExportAllDeclaration: (node) => seen(node, node.source.value, ['*'], false),
        ImportExpression: (node) =>
          node.source.type === 'Literal' && seen(node, node.source.value, ['*'], false),
      }
    },
  }
}
