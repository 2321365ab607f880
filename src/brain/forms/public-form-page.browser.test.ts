import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { externalRequests, launchBrowser, pageErrors } from '../../../test/support/browser.js';
import { expectStatus, outboxEvents } from '../../../test/support/expectations.js';

/** The public form page in real Chromium: filling, password, quiz score, a second answer refused. */
let app: TestApp;
let browser: Browser | undefined;
let context: BrowserContext;
let owner: HttpClient;
let ownerId: string;

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: owner, id: ownerId } = await signUp(app.url));
  browser = await launchBrowser();
  // One context for the file, its cookies cleared per visitor: the packaged Chromium runs as a single
  // process, and closing a context there ends the browser.
  context = await browser.newContext({ javaScriptEnabled: false });
});
afterAll(async () => {
  await browser?.close();
});

async function publish(config: Record<string, unknown>, name = 'Feedback'): Promise<{ id: string; slug: string }> {
  const res = await owner.post('/api/v1/brain/forms', { name, createDatabase: { name: `${name} answers` }, config });
  expectStatus(res, 201);
  const pub = await owner.post(`/api/v1/brain/forms/${res.body.data.id}/publish`, { published: true });
  return { id: res.body.data.id, slug: pub.body.data.publicSlug };
}

/** A new visitor (no cookies, JavaScript off), with the page's outside requests and script errors watched. */
async function visitor(): Promise<{ page: Page; outside: string[]; errors: string[]; close: () => Promise<void> }> {
  await context.clearCookies();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, outside: externalRequests(page, app.url), errors: pageErrors(page), close: async () => undefined };
}

describe('public form page in a browser (JavaScript off)', () => {
  it('fills and submits a form: errors next to the field first, then the thank-you page', async () => {
    const { id, slug } = await publish({
      description: 'Tell us',
      collectRespondentName: true,
      thankYouMessage: 'Thanks for the feedback!',
      fields: [
        { key: 'topic', label: 'Topic', type: 'text', required: true },
        { key: 'mood', label: 'How was it?', type: 'select', options: ['good', 'bad'], required: true },
        { key: 'extras', label: 'Extras', type: 'multi_select', options: ['coffee', 'cake'] },
        { key: 'stars', label: 'Stars', type: 'rating' },
        { key: 'notes', label: 'Notes', type: 'long_text' },
        { key: 'consent', label: 'You may contact me', type: 'checkbox' },
      ],
    });
    const { page, outside, errors, close } = await visitor();
    const res = await page.goto(`${app.url}/brain/f/${slug}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Feedback');

    // Labels name the inputs (what a screen reader announces).
    await page.getByRole('radiogroup', { name: 'How was it?' }).getByRole('radio', { name: 'good' }).check();
    await page.getByLabel('Your name').fill('Lin');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await page.locator('[role=alert]').innerText()).toContain('Please correct');
    expect(await page.locator('#f_topic_error').innerText()).toBe('Topic is required');
    expect(await page.getByLabel('Topic').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Topic').getAttribute('aria-describedby')).toBe('f_topic_error');
    // What was given stays filled in.
    expect(await page.getByLabel('Your name').inputValue()).toBe('Lin');
    expect(await page.locator('#f_mood_0').isChecked()).toBe(true);

    await page.getByLabel('Topic').fill('Workshop');
    await page.getByRole('checkbox', { name: 'coffee' }).check();
    await page.getByRole('checkbox', { name: 'cake' }).check();
    await page.getByRole('radio', { name: '4 of 5' }).check();
    await page.getByLabel('Notes').fill('More breaks');
    await page.getByLabel('You may contact me').check();
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await page.locator('h1').innerText()).toBe('Thank you');
    expect(await page.locator('[role=status]').innerText()).toBe('Thanks for the feedback!');

    const event = (await outboxEvents(app, ownerId, 'brain_form_submitted')).find((e) => (e.data as any).formId === id)!;
    expect(event.data.values).toEqual({ topic: 'Workshop', mood: 'good', extras: ['coffee', 'cake'], stars: 4, notes: 'More breaks', consent: true, __respondentName: 'Lin' });
    expect(event.data.respondentName).toBe('Lin');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  }, 90_000);

  it('asks for the password first: a wrong one, then the right one', async () => {
    const { slug } = await publish({ accessPassword: 'blue whale', fields: [{ key: 'answer', label: 'Answer', type: 'text', required: true }] }, 'Secret');
    const { page, outside, errors, close } = await visitor();
    await page.goto(`${app.url}/brain/f/${slug}`);
    expect(await page.getByLabel('Answer').count()).toBe(0);
    await page.getByLabel('Password').fill('orca');
    await page.getByRole('button', { name: 'Open the form' }).click();
    expect(await page.locator('#accessPassword_error').innerText()).toContain('not right');
    await page.getByLabel('Password').fill('blue whale');
    await page.getByRole('button', { name: 'Open the form' }).click();
    await page.getByLabel('Answer').fill('42');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await page.locator('h1').innerText()).toBe('Thank you');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  }, 90_000);

  it('a quiz shows its score on the thank-you page; a second submission is refused', async () => {
    const { slug } = await publish(
      {
        showQuizScore: true,
        oneResponsePerPerson: true,
        fields: [
          { key: 'capital', label: 'Capital of Italy?', type: 'select', options: ['Rome', 'Milan'], correct: 'Rome' },
          { key: 'legs', label: 'Legs of a spider?', type: 'number', correct: 8 },
          { key: 'even', label: 'Even numbers', type: 'multi_select', options: ['1', '2', '4'], correct: ['2', '4'], points: 2 },
        ],
      },
      'Quiz',
    );
    const { page, outside, errors, close } = await visitor();
    // A second tab of the same visitor opens the form before the first answers.
    const tab = await context.newPage();
    tab.setDefaultTimeout(10_000);
    await page.goto(`${app.url}/brain/f/${slug}`);
    await tab.goto(`${app.url}/brain/f/${slug}`);
    await page.getByRole('radio', { name: 'Rome' }).check();
    await page.getByLabel('Legs of a spider?').fill('6');
    await page.getByRole('checkbox', { name: '2', exact: true }).check();
    await page.getByRole('checkbox', { name: '4', exact: true }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await page.locator('#quiz-score').innerText()).toBe('Your score: 3 / 4 (75%)');

    // The other tab's answer is refused: the respondent cookie set by the first answer counts.
    await tab.getByRole('radio', { name: 'Milan' }).check();
    await tab.getByRole('button', { name: 'Submit' }).click();
    expect(await tab.locator('h1').innerText()).toBe('Already answered');
    // Opening the form again says so at once.
    await page.goto(`${app.url}/brain/f/${slug}`);
    expect(await page.locator('h1').innerText()).toBe('Already answered');
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await close();
  }, 90_000);
});
