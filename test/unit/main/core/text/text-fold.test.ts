import { describe, expect, it } from 'vitest'
import { createRng } from '../../../../../src/main/sandbox/random'
import {
  foldSearchWord,
  foldText,
  tokenize,
  transliterationKey,
} from '../../../../../src/main/core/text/text-fold'

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
    // Zoë and Zoe both read "zo": "oe" is how German spells ö, so the pair is reduced like the letter.
    expect(foldSearchWord('ZOË,')).toBe('zo')
    expect(foldSearchWord('!!')).toBe('')
  })
})

describe('transliteration keys', () => {
  it('give the spellings clerks type for one letter the same key on both sides of the search', () => {
    const same = (typed: string, stored: string) => {
      expect(foldSearchWord(typed), `${typed} ~ ${stored}`).toBe(tokenize(stored)[0])
    }
    same('Mueller', 'Müller')
    same('Muller', 'Müller')
    same('Müller', 'Mueller')
    same('Soren', 'Søren')
    same('Soeren', 'Sören')
    same('Kaethe', 'Käthe')
    same('Weiss', 'Weiß')
    same('Aaberg', 'Åberg')
    same('Aesa', 'Æsa')
    same('Jose', 'José')
  })

  it('reduce each pair left to right without overlap, exactly as the pattern of the pairs replaces them', () => {
    const random = createRng(17)
    const letters = [...'aeousxéß田']
    for (let n = 0; n < 3_000; n++) {
      const word = Array.from(
        { length: Math.floor(random() * 9) },
        () => letters[Math.floor(random() * letters.length)],
      ).join('')
      expect(transliterationKey(word), word).toBe(word.replace(/ae|oe|ue|aa|ss/g, (pair) => pair.charAt(0)))
    }
    expect(['aaa', 'aae', 'uee', 'ssss', 'mueller', 'x'].map(transliterationKey)).toEqual([
      'aa',
      'ae',
      'ue',
      'ss',
      'muller',
      'x',
    ])
  })

  it('keep the key of a typed prefix a prefix of the key of the whole word', () => {
    for (const word of ['mueller', 'strasse', 'aaberg', 'soeren', 'uaae', 'ssss', 'kaethe']) {
      for (let end = 1; end <= word.length; end++) {
        expect(transliterationKey(word).startsWith(transliterationKey(word.slice(0, end))), word).toBe(true)
      }
    }
  })
})
