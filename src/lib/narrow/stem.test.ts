import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { porterStem } from './stem.js';

// Words covering every step of the algorithm; the embedded store's own tokenizer is the judge.
const WORDS = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized
  hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci
  hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator
  feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative
  formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable
  defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti
  homologous effective bowdlerize probate rate cease controll roll generalizations oscillators running deploy
  deploys deploying deployed databases cat meetings quickly agreement abc123 archaeology logical ab national
  nationalities abilities`.split(/\s+/);

describe('porterStem', () => {
  it('stems as the embedded store indexes', () => {
    const db = new SQLite(':memory:');
    db.exec(`CREATE VIRTUAL TABLE words USING fts5(x, tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE terms USING fts5vocab(words, 'instance');`);
    const insert = db.prepare('INSERT INTO words (rowid, x) VALUES (?, ?)');
    WORDS.forEach((word, i) => insert.run(i, word));
    const rows = db.prepare('SELECT doc, term FROM terms ORDER BY doc').all() as Array<{ doc: number; term: string }>;
    assert.deepEqual(
      WORDS.map(porterStem),
      rows.map((r) => r.term),
    );
    db.close();
  });

  it('leaves short, long and non-ASCII tokens alone', () => {
    assert.equal(porterStem('is'), 'is');
    assert.equal(porterStem('x'.repeat(65) + 'ing'), 'x'.repeat(65) + 'ing');
    assert.equal(porterStem('größing'), 'größing');
    assert.equal(porterStem('running'), 'run');
  });
});
