import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser, type TestUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
let admin: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await createUser(ts);
  // Names whose LIKE wildcards must be taken literally when searched for.
  for (const name of ['Sale 50%_off', 'Sale 50xxoff', 'Sale 50%off', 'Back_slash\\team', 'Backxslashxteam'])
    await createOrganization(ts, admin, { name });
});
afterAll(async () => ts?.close());

const names = (body: { items: Array<{ name: string }> }) => body.items.map((o) => o.name).sort();

describe('searching lists', () => {
  it('takes %, _ and \\ in the search text literally', async () => {
    const api = ts.api.as(admin.key);
    const percent = await api.get('/api/v2/users/organizations/', { query: { search: '50%_off' } });
    expect(percent.status).toBe(200);
    expect(names(percent.body)).toEqual(['Sale 50%_off']);
    const slash = await api.get('/api/v2/users/organizations/', { query: { search: 'k_slash\\t' } });
    expect(names(slash.body)).toEqual(['Back_slash\\team']);
  });

  it('matches names that start with the text, literally, for staff search boxes', async () => {
    const staff = await createUser(ts, { staff: true });
    const res = await ts.api
      .as(staff.key)
      .get('/api/v2/users/organizations/staff-list-values', { query: { starts_with: 'sale 50%' } });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Sale 50%_off', 'Sale 50%off']);
    expect(res.body.count).toBe(2);
  });
});

describe('paging lists', () => {
  it('answers one page and the total of the whole filtered list', async () => {
    const api = ts.api.as(admin.key);
    const all = await api.get('/api/v2/users/organizations/', { query: { search: 'sale', limit: 50 } });
    expect(all.body.count).toBe(3);
    const first = await api.get('/api/v2/users/organizations/', { query: { search: 'sale', limit: 2 } });
    const second = await api.get('/api/v2/users/organizations/', {
      query: { search: 'sale', limit: 2, offset: 2 },
    });
    expect(first.body.count).toBe(3);
    expect(second.body.count).toBe(3);
    expect(first.body.items).toHaveLength(2);
    expect(second.body.items).toHaveLength(1);
    expect([...names(first.body), ...names(second.body)].sort()).toEqual(names(all.body));
    const past = await api.get('/api/v2/users/organizations/', { query: { search: 'sale', offset: 10 } });
    expect(past.body).toEqual({ items: [], count: 3 });
  });

  it('pages v1 lists by page number with next and previous links', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    for (let i = 0; i < 3; i++) await api.post('/api/v1/api-tokens/', { label: `t${i}` });
    const page1 = await api.get('/api/v1/api-tokens/', { query: { page_size: 2 } });
    expect(page1.body.count).toBe(3);
    expect(page1.body.results).toHaveLength(2);
    expect(page1.body.previous).toBeNull();
    const page2 = await api.get(new URL(page1.body.next).pathname + new URL(page1.body.next).search);
    expect(page2.body.results).toHaveLength(1);
    expect(page2.body.next).toBeNull();
  });
});
