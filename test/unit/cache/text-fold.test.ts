import { describe, expect, it } from 'vitest'
import { foldSearchWord, foldText, tokenize } from '../../../src/main/core/cache/text-fold'

describe('foldText', () => {
  it('drops case and accents, including letters Unicode does not decompose', () => {
    expect(foldText('ÉLODIE Müller-Lüdenscheidt')).toBe('elodie muller-ludenscheidt')
    expect(foldText('Søren Łukasz Straße Æsa')).toBe('soren lukasz strasse aesa')
    expect(foldText('Ｆｕｌｌ')).toBe('full')
  })

  it('keeps non-Latin scripts, folded where the script has case', () => {
    expect(foldText('АНАСТАСИЯ')).toBe('анастасия')
    expect(foldText('田中')).toBe('田中')
  })
})

describe('tokenize', () => {
  it('gives each word, each part of a joined word and the joined word itself', () => {
    expect(tokenize("Seán O'Brien")).toEqual(['sean', 'obrien', 'o', 'brien'])
    expect(tokenize('Smith-Jones')).toEqual(['smithjones', 'smith', 'jones'])
    expect(tokenize('Mary Jane')).toEqual(['mary', 'jane'])
  })

  it('returns nothing for empty or punctuation-only text', () => {
    expect(tokenize('   ')).toEqual([])
    expect(tokenize('--')).toEqual([])
  })
})

describe('foldSearchWord', () => {
  it('turns what a clerk types into a token prefix', () => {
    expect(foldSearchWord("O'Br")).toBe('obr')
    expect(foldSearchWord('ZOË,')).toBe('zoe')
    expect(foldSearchWord('!!')).toBe('')
  })
})
