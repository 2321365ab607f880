import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { expectStatus, outboxEvents } from '../../../test/support/expectations.js';

/** The public page's door (no browser): each form rule answered as a page, CSRF, CSP, escaping. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
});

const FIELDS = [
  { key: 'name', label: 'Your <name>', type: 'text', required: true },
  { key: 'age', label: 'Age', type: 'number' },
  { key: 'langs', label: 'Languages', type: 'multi_select', options: ['ts', 'go'] },
  { key: 'agree', label: 'I agree', type: 'checkbox' },
  { key: 'stars', label: 'Stars', type: 'rating' },
];

async function publishedForm(config: Record<string, unknown>, name = 'Survey'): Promise<{ id: string; slug: string }> {
  const res = await alice.post('/api/v1/brain/forms', { name, createDatabase: { name: 'Answers' }, config: { fields: FIELDS, ...config } });
  expectStatus(res, 201);
  const pub = await alice.post(`/api/v1/brain/forms/${res.body.data.id}/publish`, { published: true });
  return { id: res.body.data.id, slug: pub.body.data.publicSlug };
}

/** A visitor without JavaScript: keeps cookies, reads the hidden token, posts urlencoded forms. */
class Visitor {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async get(path: string) {
    const res = await fetch(this.base + path, { headers: { cookie: this.header() } });
    this.keep(res);
    return { status: res.status, headers: res.headers, html: await res.text() };
  }
  async post(path: string, fields: [string, string][]) {
    const res = await fetch(this.base + path, {
      method: 'POST',
      headers: { cookie: this.header(), 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: new URLSearchParams(fields).toString(),
    });
    this.keep(res);
    return { status: res.status, headers: res.headers, html: await res.text() };
  }
}

const token = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

describe('public form page', () => {
  it('renders an accessible form with a strict CSP, escaped labels and required marks', async () => {
    const { slug } = await publishedForm({ description: '<script>alert(1)</script>' });
    const page = await new Visitor(app.url).get(`/brain/f/${slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/script-src/);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).toContain('<label for="f_name">Your &lt;name&gt; <span class="req" aria-hidden="true">*</span><span class="hint"> (required)</span></label>');
    expect(page.html).toContain('<input type="text" id="f_name" name="f_name" value="" aria-required="true">');
    expect(page.html).toContain('<legend>Languages</legend>');
    expect(page.html).toMatch(/<html lang="en">/);
  });

  it('unknown slug: a 404 page', async () => {
    const page = await new Visitor(app.url).get('/brain/f/nothing-here');
    expect(page.status).toBe(404);
    expect(page.html).toContain('Form not found');
  });

  it('a post without the CSRF token is refused with a 403 page and stores nothing', async () => {
    const { id, slug } = await publishedForm({});
    const v = new Visitor(app.url);
    await v.get(`/brain/f/${slug}`);
    const res = await v.post(`/brain/f/${slug}`, [['_action', 'submit'], ['f_name', 'Eve']]);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const records = await alice.get(`/api/v1/brain/databases/${(await alice.get(`/api/v1/brain/forms/${id}`)).body.data.databaseId}/records`);
    expect(records.body.data).toEqual([]);
  });

  it('submits through the page: errors next to their field (400), then the thank-you page and the event', async () => {
    const { id, slug } = await publishedForm({ thankYouMessage: 'Cheers <3' });
    const v = new Visitor(app.url);
    const page = await v.get(`/brain/f/${slug}`);
    const bad = await v.post(`/brain/f/${slug}`, [['_csrf', token(page.html)], ['_action', 'submit'], ['f_name', ''], ['f_age', 'old'], ['f_langs', 'go']]);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('role="alert"');
    expect(bad.html).toMatch(/id="f_name"[^>]*aria-invalid="true" aria-describedby="f_name_error"><p class="error" id="f_name_error">Your &lt;name&gt; is required<\/p>/);
    expect(bad.html).toMatch(/id="f_age" name="f_age" value="old"[^>]*aria-invalid="true"[^>]*><p class="error" id="f_age_error">Age must be a number<\/p>/);
    expect(bad.html).toContain('value="go" checked');
    const ok = await v.post(`/brain/f/${slug}`, [['_csrf', token(bad.html)], ['_action', 'submit'], ['f_name', 'Eve'], ['f_age', '33'], ['f_langs', 'ts'], ['f_langs', 'go'], ['f_agree', 'true'], ['f_stars', '4']]);
    expect(ok.status).toBe(200);
    expect(ok.html).toContain('Thank you');
    expect(ok.html).toContain('Cheers &lt;3');
    const events = await outboxEvents(app, aliceId, 'brain_form_submitted');
    const event = events.find((e) => (e.data as any).formId === id)!;
    expect(event.data.values).toEqual({ name: 'Eve', age: 33, langs: ['ts', 'go'], agree: true, stars: 4 });
    expect(event.data.publicSlug).toBe(slug);
  });

  it('password first: wrong is 401 with the error next to the field, right shows the questions', async () => {
    const { slug } = await publishedForm({ accessPassword: 'open sesame' });
    const v = new Visitor(app.url);
    const first = await v.get(`/brain/f/${slug}`);
    expect(first.html).toContain('type="password"');
    expect(first.html).not.toContain('f_name');
    const wrong = await v.post(`/brain/f/${slug}`, [['_csrf', token(first.html)], ['_action', 'unlock'], ['accessPassword', 'nope']]);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('aria-describedby="accessPassword_error"');
    expect(wrong.html).toContain('The password is not right');
    const right = await v.post(`/brain/f/${slug}`, [['_csrf', token(wrong.html)], ['_action', 'unlock'], ['accessPassword', 'open sesame']]);
    expect(right.status).toBe(200);
    expect(right.html).toContain('id="f_name"');
    // Submitting with a tampered password goes back to the password step.
    const tampered = await v.post(`/brain/f/${slug}`, [['_csrf', token(right.html)], ['_action', 'submit'], ['accessPassword', 'guess'], ['f_name', 'Eve']]);
    expect(tampered.status).toBe(401);
    const done = await v.post(`/brain/f/${slug}`, [['_csrf', token(tampered.html)], ['_action', 'submit'], ['accessPassword', 'open sesame'], ['f_name', 'Eve']]);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Thank you');
  });

  it('too many wrong passwords: the page answers 429 with a clear message, even to the right password', async () => {
    const { slug } = await publishedForm({ accessPassword: 'open sesame' });
    const v = new Visitor(app.url);
    let html = (await v.get(`/brain/f/${slug}`)).html;
    for (let i = 0; i < 10; i++) {
      const wrong = await v.post(`/brain/f/${slug}`, [['_csrf', token(html)], ['_action', 'unlock'], ['accessPassword', `guess ${i}`]]);
      expect(wrong.status).toBe(401);
      html = wrong.html;
    }
    const locked = await v.post(`/brain/f/${slug}`, [['_csrf', token(html)], ['_action', 'unlock'], ['accessPassword', 'open sesame']]);
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('too many wrong passwords');
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    const refused = await v.post(`/brain/f/${slug}`, [['_csrf', token(html)], ['_action', 'submit'], ['accessPassword', 'open sesame'], ['f_name', 'Eve']]);
    expect(refused.status).toBe(429);
  });

  it('closed form: a clear page on GET (200) and POST (410)', async () => {
    const { id, slug } = await publishedForm({});
    const v = new Visitor(app.url);
    const page = await v.get(`/brain/f/${slug}`);
    await alice.patch(`/api/v1/brain/forms/${id}`, { config: { fields: FIELDS, closed: true } });
    const post = await v.post(`/brain/f/${slug}`, [['_csrf', token(page.html)], ['_action', 'submit'], ['f_name', 'Late']]);
    expect(post.status).toBe(410);
    expect(post.html).toContain('This form is closed');
    const again = await v.get(`/brain/f/${slug}`);
    expect(again.status).toBe(200);
    expect(again.html).toContain('This form is closed');
    expect(again.html).not.toContain('f_name');
  });

  it('one response per person: the cookie marks the visitor; a second answer gets a clear page', async () => {
    const { slug } = await publishedForm({ oneResponsePerPerson: true });
    const v = new Visitor(app.url);
    const page = await v.get(`/brain/f/${slug}`);
    const first = await v.post(`/brain/f/${slug}`, [['_csrf', token(page.html)], ['_action', 'submit'], ['f_name', 'Once']]);
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie().some((c) => c.startsWith('lp_brain_respondent=') && /HttpOnly/i.test(c))).toBe(true);
    const second = await v.post(`/brain/f/${slug}`, [['_csrf', token(page.html)], ['_action', 'submit'], ['f_name', 'Twice']]);
    expect(second.status).toBe(409);
    expect(second.html).toContain('already answered');
    const revisit = await v.get(`/brain/f/${slug}`);
    expect(revisit.html).toContain('already answered');
    // The same cookie is counted by the public REST door too.
    const rest = await fetch(`${app.url}/api/v1/brain/public/forms/${slug}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: v.header() },
      body: JSON.stringify({ values: { name: 'Thrice' } }),
    });
    expect(rest.status).toBe(409);
  });

  it('quiz: the thank-you page shows the score only with showQuizScore', async () => {
    const quiz = [{ key: 'q', label: '1+1', type: 'number', correct: 2 }];
    const shown = await alice.post('/api/v1/brain/forms', { name: 'Q', createDatabase: { name: 'Q' }, config: { fields: quiz, showQuizScore: true } });
    const slug = (await alice.post(`/api/v1/brain/forms/${shown.body.data.id}/publish`, { published: true })).body.data.publicSlug;
    const v = new Visitor(app.url);
    const page = await v.get(`/brain/f/${slug}`);
    const res = await v.post(`/brain/f/${slug}`, [['_csrf', token(page.html)], ['_action', 'submit'], ['f_q', '2']]);
    expect(res.html).toContain('Your score: 1 / 1 (100%)');
    const hidden = await alice.post('/api/v1/brain/forms', { name: 'Q2', createDatabase: { name: 'Q2' }, config: { fields: quiz } });
    const slug2 = (await alice.post(`/api/v1/brain/forms/${hidden.body.data.id}/publish`, { published: true })).body.data.publicSlug;
    const page2 = await v.get(`/brain/f/${slug2}`);
    const res2 = await v.post(`/brain/f/${slug2}`, [['_csrf', token(page2.html)], ['_action', 'submit'], ['f_q', '2']]);
    expect(res2.status).toBe(200);
    expect(res2.html).not.toContain('Your score');
  });
});
