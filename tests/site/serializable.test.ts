/**
 * Page data must be plain JSON (SPEC section 8, "props not serializable"): the
 * build's check names the page and the field, and an object it has already
 * found plain (an article summary shared by many pages) is not walked again.
 */
import { describe, expect, it } from 'vitest';
import { createSerializableCheck } from '../../site/render/serializable.ts';

function failure(check: ReturnType<typeof createSerializableCheck>, props: unknown, page = '/p'): string {
  try {
    check(props, page);
  } catch (error) {
    return (error as Error).message;
  }
  return 'passed';
}

describe('the page-data check', () => {
  it('names the page and the field of what JSON cannot hold', () => {
    const check = createSerializableCheck();
    expect(failure(check, { a: { date: new Date(0) } }, '/articles/x')).toBe('page /articles/x: props.a.date is a Date, which JSON cannot hold');
    expect(failure(check, { list: [1, undefined] })).toBe('page /p: props.list[1] is undefined, which JSON cannot hold');
    expect(failure(check, { n: Number.NaN })).toBe('page /p: props.n is NaN, which JSON cannot hold');
    expect(failure(check, { m: new Map() })).toBe('page /p: props.m is a Map, which JSON cannot hold');
    expect(failure(check, { f: () => 1 })).toBe('page /p: props.f is a function, which JSON cannot hold');
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = { back: loop };
    expect(failure(check, { loop })).toBe('page /p: props.loop.self.back is a circular reference, which JSON cannot hold');
  });

  it('passes plain JSON, an absent field and the same object twice', () => {
    const check = createSerializableCheck();
    const shared = { title: 'Odds', tags: ['a', 'b'], picture: true };
    expect(failure(check, { first: shared, second: shared, missing: undefined, n: 1.5, none: null })).toBe('passed');
  });

  it('still walks a new object that looks like one it has passed', () => {
    const check = createSerializableCheck();
    const summary = { slug: 'a', title: 'A' };
    expect(failure(check, { related: [summary] }, '/one')).toBe('passed');
    // The same summary in another page's props: remembered as plain.
    expect(failure(check, { related: [summary, summary] }, '/two')).toBe('passed');
    // A fresh object of the same shape with a bad field is checked for itself.
    expect(failure(check, { related: [summary, { slug: 'b', title: 'B', date: new Date(0) }] }, '/three')).toBe(
      'page /three: props.related[1].date is a Date, which JSON cannot hold',
    );
  });

  it('does not remember an object that failed, nor what held it', () => {
    const check = createSerializableCheck();
    const bad = { when: new Date(0) };
    const holder = { bad };
    expect(failure(check, { holder }, '/one')).toContain('props.holder.bad.when is a Date');
    expect(failure(check, { again: holder }, '/two')).toContain('props.again.bad.when is a Date');
  });
});

describe('the page-data check on deep props', () => {
  it('tells a cycle from props that are only deep', () => {
    const check = createSerializableCheck();
    const list: unknown[] = [];
    list.push({ inner: list });
    expect(failure(check, { a: { list } })).toBe('page /p: props.a.list[0].inner is a circular reference, which JSON cannot hold');
    let deep: unknown = 'end';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(failure(check, { deep })).toBe('page /p: props is nested deeper than 64 levels, which JSON cannot hold');
    let fine: unknown = 'end';
    for (let i = 0; i < 30; i++) fine = [fine];
    expect(failure(check, { fine })).toBe('passed');
  });
});
