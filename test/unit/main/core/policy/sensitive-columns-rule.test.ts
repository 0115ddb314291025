import { describe, expect, it } from 'vitest'
import {
  NO_EXPORT_RULES,
  ONLY_SENSITIVE_COLUMNS_MESSAGE,
  sensitiveColumnsIncluded,
  sensitiveColumnsQuestion,
} from '../../../../../src/shared/policy-view'
import { maskedText, MASKED_VALUE } from '../../../../../src/shared/sensitive-fields'
import { allowedExportColumns, exportRulesOf } from '../../../../../src/main/core/policy/export-rules'
import { PolicyRules } from '../../../../../src/main/core/policy/policy-rules'
import { POLICY_REGISTRY_VALUES, policySchema } from '../../../../../src/main/core/policy/policy-schema'

/**
 * Issue 34, point 2: the machine policy's `exports.sensitiveColumns` (include, exclude, ask) and
 * `personalData.maskSensitiveColumns`, read as the policy file and the registry give them, and the one rule
 * every export, printed page and copy follows.
 */
const rules = (sensitiveColumns?: 'include' | 'exclude' | 'ask') =>
  exportRulesOf({
    policy: policySchema.parse(sensitiveColumns === undefined ? {} : { exports: { sensitiveColumns } }),
    source: '/etc/rosterdesk/policy.json',
    problem: undefined,
  })
const COLUMNS = ['lastName', 'annualSalary', 'iban', 'department', 'birthDate']

describe('exports.sensitiveColumns', () => {
  it('is include, exclude or ask, and the registry holds it as SensitiveColumns (and the mask as a DWORD)', () => {
    expect(
      policySchema.safeParse({ exports: { sensitiveColumns: 'sometimes' } }).error?.issues[0]?.message,
    ).toBe('"exports.sensitiveColumns" is "include", "exclude" or "ask".')
    expect(
      policySchema.safeParse({ personalData: { maskSensitiveColumns: 'yes' } }).error?.issues[0]?.message,
    ).toBe('"personalData.maskSensitiveColumns" must be true or false.')
    expect(POLICY_REGISTRY_VALUES).toContainEqual({
      value: 'SensitiveColumns',
      type: 'REG_SZ',
      path: ['exports', 'sensitiveColumns'],
    })
    expect(POLICY_REGISTRY_VALUES).toContainEqual({
      value: 'MaskSensitiveColumns',
      type: 'REG_DWORD',
      path: ['personalData', 'maskSensitiveColumns'],
      boolean: true,
    })
  })

  it('include (or none) keeps every column; exclude never a sensitive one, whatever the request answers', () => {
    expect(allowedExportColumns(NO_EXPORT_RULES, COLUMNS)).toEqual(COLUMNS)
    expect(allowedExportColumns(rules('include'), COLUMNS)).toEqual(COLUMNS)
    for (const answer of [undefined, 'include', 'exclude'] as const) {
      expect(allowedExportColumns(rules('exclude'), COLUMNS, answer)).toEqual(['lastName', 'department'])
    }
    // The clerk may always leave them out.
    expect(allowedExportColumns(rules('include'), COLUMNS, 'exclude')).toEqual(['lastName', 'department'])
  })

  it('ask keeps them only when the clerk answered include; print and copy, which ask nothing, leave them out', () => {
    expect(allowedExportColumns(rules('ask'), COLUMNS, 'include')).toEqual(COLUMNS)
    expect(allowedExportColumns(rules('ask'), COLUMNS, 'exclude')).toEqual(['lastName', 'department'])
    expect(allowedExportColumns(rules('ask'), COLUMNS)).toEqual(['lastName', 'department'])
    expect(sensitiveColumnsIncluded(rules('ask'))).toBe(false)
    expect(sensitiveColumnsIncluded(rules('include'))).toBe(true)
  })

  it('refuses an export whose every column is sensitive and left out, rather than write a file of none', () => {
    expect(() => allowedExportColumns(rules('exclude'), ['annualSalary', 'iban'])).toThrow(
      expect.objectContaining({ code: 'not-allowed', message: ONLY_SENSITIVE_COLUMNS_MESSAGE }),
    )
  })

  it('shows the renderer the rule and the mask, nothing else of the policy', () => {
    const inForce = {
      policy: policySchema.parse({
        exports: { sensitiveColumns: 'ask' },
        personalData: { maskSensitiveColumns: true },
      }),
      source: '/etc/rosterdesk/policy.json',
      problem: undefined,
    }
    const view = new PolicyRules(inForce).view({
      name: 'Demo',
      settings: { environment: 'demo', baseUrls: { staging: '', production: '' } },
    })
    expect(view.exports).toEqual({ csvAllowed: true, maxRows: undefined, sensitiveColumns: 'ask' })
    expect(view.maskSensitiveColumns).toBe(true)
  })
})

describe('the words and the masks', () => {
  it('names the columns the export asks about', () => {
    expect(sensitiveColumnsQuestion(['IBAN'])).toBe(
      'IBAN holds sensitive personal data. Your organisation asks you to choose whether this export includes it.',
    )
    expect(sensitiveColumnsQuestion(['Annual salary', 'IBAN', 'Birth date'])).toMatch(
      /^Annual salary, IBAN and Birth date hold sensitive personal data\./,
    )
  })

  it('masks an account number but its last four characters, and any other sensitive value whole', () => {
    expect(maskedText('iban', 'DE89 3704 0044 0532 0130 00')).toBe('•••• 3000')
    expect(maskedText('bankAccount', '12345678')).toBe('•••• 5678')
    expect(maskedText('annualSalary', 58_234.5)).toBe(MASKED_VALUE)
    expect(maskedText('birthDate', '1980-01-02')).toBe(MASKED_VALUE)
    expect(maskedText('iban', null)).toBe('')
  })
})
