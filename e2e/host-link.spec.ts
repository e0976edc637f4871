import { expect, test } from './fixtures';
import { pickModel } from './helpers';

test('when the link to the host drops as the app starts, the models and drafts load once it is back', async ({
  page,
  host,
}) => {
  let dropped = false;
  // The first socket is closed as the window asks for the models: the answer never comes on it.
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (!dropped && (JSON.parse(String(m)) as { name?: string }).name === 'models:list') {
        dropped = true;
        void ws.close();
        return;
      }
      server.send(m);
    });
    server.onMessage((m) => ws.send(m));
  });
  await page.goto(host.url);
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toBeVisible();
  await expect.poll(() => dropped).toBe(true);
  // No click on ⟳: the list comes back by itself and the Demo gateway's model is picked, so Send works.
  await expect(page.getByText(/\d+ models/)).not.toHaveText(/^0 models/);
  await expect(page.getByRole('combobox', { name: 'Model' })).not.toHaveValue('');
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await pickModel(page, 'sim-fault-slow');
  await expect(page.getByText(/Draft not saved/)).toHaveCount(0);
});

test('a Model box clicked before the Demo model is picked stays the user’s: typing gives the id typed', async ({
  page,
  host,
}) => {
  // The kept drafts answer late, so the Demo model is picked only after the user is in the box.
  let late = false;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    const slow = new Set<number>();
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { id?: number; name?: string };
      if (msg.name === 'drafts:list' && msg.id !== undefined) slow.add(msg.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { id?: number };
      if (msg.id !== undefined && slow.has(msg.id)) {
        setTimeout(() => {
          late = true;
          ws.send(m);
        }, 1500);
      } else ws.send(m);
    });
  });
  await page.goto(host.url);
  const box = page.getByRole('combobox', { name: 'Model' });
  await box.click();
  await expect.poll(() => late).toBe(true);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await expect(box).toHaveValue('');
  await page.keyboard.type('sim-fault-slow');
  await expect(box).toHaveValue('sim-fault-slow');
  await box.press('Enter');
  await expect(box).toHaveValue('sim-fault-slow');
});

test('a window whose token the restarted host no longer accepts says so and how to get in; Send is off', async ({
  page,
  host,
}) => {
  const sockets: { close(): Promise<void> }[] = [];
  await page.routeWebSocket(/\/ws/, (ws) => {
    sockets.push(ws);
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(m));
  });
  await page.goto(host.url);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  // The host starts again with a new token: it answers this window's token with 401, and the link drops.
  await page.route(/\/\?token=/, (route) => route.fulfill({ status: 401, body: 'Unauthorized' }));
  await sockets[0].close();
  const banner = page.getByRole('alert', { name: 'Old link' });
  await expect(banner).toContainText("This window's link is from an earlier start of Gateway Playground");
  await expect(banner).toContainText('Open the address the host printed when it started');
  await expect(page.getByText('reconnecting…')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(page.getByLabel('Why Send is off')).toContainText('earlier start of the app');
});
