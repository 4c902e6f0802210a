// Terms from real multilingual titles (PyVideo, tests/fixtures/pyvideo-multilingual.ndjson.gz):
// words of scripts written without spaces are found by ICU's dictionaries, accents of Latin and
// Cyrillic letters are removed, other scripts' marks and voicing kept.
import { describe, expect, it } from 'vitest';
import { allowsTypos, termsOf } from '../../../src/search/text.ts';

describe('termsOf', () => {
  it('splits Japanese runs into words', () => {
    expect(termsOf('Python プロダクトを活用した開発チーム運営 by Takahiro Ikeuchi / 池内 孝啓'))
      .toEqual(expect.arrayContaining(['python', 'プロダクト', '活用', '開発', 'チーム', '運営', 'takahiro', 'ikeuchi']));
    expect(termsOf('開発チーム運営')).toEqual(['開発', 'チーム', '運営']);
  });

  it('splits Chinese and Thai runs into words, keeping Thai vowel signs inside them', () => {
    expect(termsOf('如何用 grs 擷取台灣上市股票股價資訊')).toEqual(expect.arrayContaining(['grs', '台灣', '股票', '資訊']));
    expect(termsOf('10  Python 的 NLP 实战分享 如何实现合同风险预测模型')).toEqual(expect.arrayContaining(['nlp', '实战', '分享', '模型']));
    expect(termsOf('ภาษาไทยง่าย')).toEqual(['ภาษา', 'ไทย', 'ง่าย']);
  });

  it('keeps Korean words as spaced, and Devanagari words whole', () => {
    expect(termsOf('NetworkX를 이용한 네트워크 링크 예측')).toEqual(['networkx를', '이용한', '네트워크', '링크', '예측']);
    expect(termsOf('हिन्दी भाषा')).toEqual(['हिन्दी', 'भाषा']);
  });

  it('removes accents of Latin and Cyrillic letters, so both spellings are one term', () => {
    expect(termsOf('Introdução sobre Apache Spark e computação distribuída')).toEqual(termsOf('Introducao sobre apache spark e computacao distribuida'));
    expect(termsOf('Implementación de un Identificador de Sonido')).toContain('implementacion');
    expect(termsOf('Libusb vs linux kernel. Сравнение userspace & kernelspace API')).toContain('сравнение');
    expect(termsOf('Ёлка')).toEqual(termsOf('елка'));
  });

  it('keeps Japanese voicing marks: ガイド and カイト are two words', () => {
    expect(termsOf('Pylons ユーザのための Pyramid 移行ガイド')).toContain('ガイド');
    expect(termsOf('ガイド')).not.toEqual(termsOf('カイト'));
  });

  it('folds full-width and half-width forms', () => {
    expect(termsOf('ＦＵＬＬ ｗｉｄｔｈ ｶﾀｶﾅ')).toEqual(['full', 'width', 'カタカナ']);
  });
});

describe('allowsTypos', () => {
  it('allows typos in alphabetic scripts, not where a character is a syllable or a word', () => {
    expect(allowsTypos('programacion')).toBe(true);
    expect(allowsTypos('сравнение')).toBe(true);
    for (const term of ['プロダクト', '運営', '네트워크', 'ภาษา']) expect(allowsTypos(term), term).toBe(false);
  });
});
