import 'reflect-metadata';
import { openDatabaseServer } from './bench/lib/database.js';
import { connectOrm } from './src/core/database/orm.js';
import { DayService } from './src/planning/day.service.js';
import { SettingsService } from './src/settings/settings.service.js';
import { WeekService } from './src/planning/week.service.js';
import { StepsService } from './src/wellness/wellness.service.js';
import { User } from './src/accounts/user.entity.js';
import { todayIn } from './src/core/dates.js';
const server = await openDatabaseServer(console.log);
const database = await server.freshDatabase('probe2');
const orm = await connectOrm(database.url);
try {
  const em0 = orm.em.fork();
  const user = em0.create(User, { email: `x${Date.now()}@e.com`, passwordHash: 'x' });
  await em0.flush();
  const time = async (label: string, f: () => Promise<unknown>, n = 30) => { await f(); const s = performance.now(); for (let i = 0; i < n; i++) await f(); console.log(label, ((performance.now() - s) / n).toFixed(2)); };
  await time('today', () => new DayService(orm.em.fork()).today(user.id));
  await time('timezoneOf', () => new SettingsService(orm.em.fork()).timezoneOf(user.id));
  await time('ensureDay', () => new WeekService(orm.em.fork()).ensureDay(user.id, todayIn('UTC')));
  await time('todayIn', async () => todayIn('UTC'), 1000);
  const day = await new DayService(orm.em.fork()).today(user.id);
  await time('steps log', () => new StepsService(orm.em.fork()).log(user.id, { dayId: day.id, steps: 5 }));
  await time('raw select 1', () => orm.em.getConnection().execute('select 1'));
} finally {
  await orm.close();
  await database.drop();
  await server.close();
}
