import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, count, createEvent, startService, type Service } from './support/harness.ts';
import { makeImages, startImageServer, type TestImages } from './support/image-server.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', 'bin', 'events.js');
const UPLOADS = 'http://wordpress.test/wp-content/uploads/2018/01/';
const MEDIA_ENV = { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1', EVENTS_MEDIA_MAX_BYTES: '100000' };

/** Every file under the uploads folder, temporary ones included. */
const filesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
};
const attachments = async (svc: Service) =>
  Number(
    (
      await svc.store.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll().as('c'))
        .executeTakeFirstOrThrow()
    ).c,
  );

describe.each(STORES)('media library: featured images ($name)', (factory) => {
  let svc: Service;
  let images: TestImages;
  let host: Awaited<ReturnType<typeof startImageServer>>;
  beforeAll(async () => {
    images = await makeImages();
    host = await startImageServer(images);
    svc = await startService(factory, { env: MEDIA_ENV });
  });
  afterAll(async () => {
    await svc.close();
    await host.close();
  });
  /** Fetches one of our uploads URLs from the running service. */
  const download = (url: string, method = 'GET') => fetch(url.replace('http://wordpress.test', svc.base), { method });
  let photo: { id: number; url: string };
  let photoEvent: number;

  it('imports an image URL with the WordPress sizes and shows the §1.2 image object', async () => {
    const ev = await createEvent(svc, { title: 'With photo', image: `${host.url}/photo.jpg` });
    photo = ev.image;
    photoEvent = ev.id;
    expect(Object.keys(ev.image)).toEqual(['url', 'id', 'extension', 'width', 'height', 'filesize', 'sizes']);
    expect(ev.image).toMatchObject({
      url: `${UPLOADS}photo.jpg`,
      extension: 'jpg',
      width: 1200,
      height: 800,
      filesize: images.photo.length,
    });
    expect(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
      Object.entries(ev.image.sizes).map(([n, s]: [string, any]) => [n, s.width, s.height, s['mime-type'], s.url]),
    ).toEqual([
      ['thumbnail', 150, 150, 'image/jpeg', `${UPLOADS}photo-150x150.jpg`],
      ['medium', 300, 200, 'image/jpeg', `${UPLOADS}photo-300x200.jpg`],
      ['medium_large', 768, 512, 'image/jpeg', `${UPLOADS}photo-768x512.jpg`],
      ['large', 1024, 683, 'image/jpeg', `${UPLOADS}photo-1024x683.jpg`],
    ]);
    const single = await svc.get(`/events/${ev.id}`);
    expect(single.body.image).toEqual(ev.image);
    expect(single.body.json_ld.image).toBe(ev.image.url);
  });

  it('serves the original and every size with the right bytes and Content-Type', async () => {
    const original = await download(photo.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await original.arrayBuffer()).equals(images.photo)).toBe(true);
    const ev = (await svc.get(`/events/${photoEvent}`)).body;
    for (const size of Object.values(ev.image.sizes) as {
      url: string;
      width: number;
      height: number;
      filesize: number;
    }[]) {
      const res = await download(size.url);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(bytes.length).toBe(size.filesize);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: size.width, height: size.height });
    }
    const head = await download(photo.url, 'HEAD');
    expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([
      200,
      'image/jpeg',
      String(images.photo.length),
    ]);
  });

  it('answers 404 for missing files, temporary files and paths that leave the uploads folder', async () => {
    for (const path of [
      '/wp-content/uploads/2018/01/none.jpg',
      '/wp-content/uploads/2018/01/%2e%2e/%2e%2e/../events.sqlite',
      '/wp-content/uploads/..%2f..%2fetc%2fpasswd',
      '/wp-content/uploads/2018/01/.tmp-0000',
      '/wp-content/uploads/2018/01/photo.txt',
    ]) {
      expect((await fetch(`${svc.base}${path}`)).status).toBe(404);
    }
  });

  it('re-uses the attachment for a URL imported before and for our own uploads URL: same id, no new file', async () => {
    const files = filesIn(svc.uploadsDir);
    expect(files).toHaveLength(5);
    const again = await createEvent(svc, { title: 'Same URL', image: `${host.url}/photo.jpg` });
    const own = await createEvent(svc, { title: 'Own URL', image: photo.url });
    expect([again.image.id, own.image.id]).toEqual([photo.id, photo.id]);
    expect(filesIn(svc.uploadsDir)).toEqual(files);
    expect(await attachments(svc)).toBe(1);
  });

  it('takes an attachment id from a form, but not as a JSON number (image is declared string)', async () => {
    expect((await createEvent(svc, { title: 'By id', image: String(photo.id) })).image.id).toBe(photo.id);
    const base = { title: 'JSON', start_date: '2018-01-12 10:00', end_date: '2018-01-12 11:00' };
    const asNumber = await svc.request('POST', '/events', { json: { ...base, image: photo.id }, as: 'administrator' });
    expect([asNumber.status, asNumber.body.code, asNumber.body.data.params.image]).toEqual([
      400,
      'rest_invalid_param',
      'image is not of type string.',
    ]);
    const asString = await svc.request('POST', '/events', {
      json: { ...base, image: String(photo.id) },
      as: 'administrator',
    });
    expect([asString.status, asString.body.image.id]).toEqual([201, photo.id]);
  });

  it('answers 400 rest_invalid_param and writes no row and no file for every unusable image', async () => {
    const ev = await createEvent(svc, { title: 'Not an image' });
    const before = {
      posts: await count(svc, 'posts'),
      attachments: await attachments(svc),
      files: filesIn(svc.uploadsDir),
    };
    const bad: Array<[string, string]> = [
      ['id of a non-image post', String(ev.id)],
      ['missing id', '999999'],
      ['not an id or URL', 'foo bar'],
      ['unreachable URL', 'http://127.0.0.1:1/photo.jpg'],
      ['404 URL', `${host.url}/missing.jpg`],
      ['text/plain', `${host.url}/notes.txt`],
      ['image type, text bytes', `${host.url}/fake.jpg`],
      ['SVG', `${host.url}/drawing.svg`],
      ['over EVENTS_MEDIA_MAX_BYTES', `${host.url}/big.png`],
      ['redirect loop', `${host.url}/loop`],
      ['ftp URL', 'ftp://127.0.0.1/photo.jpg'],
    ];
    for (const [why, image] of bad) {
      const res = await svc.post('/events', {
        title: `Bad: ${why}`,
        start_date: '2018-01-12 10:00',
        end_date: '2018-01-12 11:00',
        image,
      });
      expect([why, res.status, res.body.code, Object.keys(res.body.data.params)]).toEqual([
        why,
        400,
        'rest_invalid_param',
        ['image'],
      ]);
      const update = await svc.post(`/events/${ev.id}`, { image });
      expect([why, update.status]).toEqual([why, 400]);
    }
    // The event's own image is downloaded and its files written before the inline venue's image is refused: they go.
    const mixed = await svc.post('/events', {
      title: 'Mixed',
      start_date: '2018-01-12 10:00',
      end_date: '2018-01-12 11:00',
      image: `${host.url}/anim.gif?v=0`,
      venue: { venue: 'Bad image hall', image: `${host.url}/notes.txt` },
    });
    expect([mixed.status, mixed.body.code, Object.keys(mixed.body.data.params)]).toEqual([
      400,
      'rest_invalid_param',
      ['venue'],
    ]);
    expect({
      posts: await count(svc, 'posts'),
      attachments: await attachments(svc),
      files: filesIn(svc.uploadsDir),
    }).toEqual(before);
    expect((await svc.get(`/events/${ev.id}`)).body.image).toBe(false);
  });

  it('needs upload_files for a URL: a contributor gets 400 rest_invalid_param, an author imports', async () => {
    const rows = await count(svc, 'posts');
    const contributor = await svc.post(
      '/events',
      { title: 'C', start_date: '2018-01-12 10:00', end_date: '2018-01-12 11:00', image: `${host.url}/small.webp` },
      'contributor',
    );
    expect([contributor.status, contributor.body.code]).toEqual([400, 'rest_invalid_param']);
    expect(await count(svc, 'posts')).toBe(rows);
    expect((await createEvent(svc, { title: 'C by id', image: String(photo.id) }, 'contributor')).image.id).toBe(
      photo.id,
    );
    const author = await createEvent(svc, { title: 'A', image: `${host.url}/small.webp` }, 'author');
    // 100×80 is smaller than every size: no sizes are made, and the empty `sizes` entry is dropped.
    expect(author.image).toEqual({
      url: `${UPLOADS}small.webp`,
      id: author.image.id,
      extension: 'webp',
      width: 100,
      height: 80,
      filesize: images.small.length,
    });
  });

  it('follows a redirect to the image, and names a second file of the same name -1', async () => {
    const moved = await createEvent(svc, { title: 'Moved', image: `${host.url}/moved` });
    expect(moved.image).toMatchObject({ url: `${UPLOADS}moved.png`, width: 640, height: 480 });
    expect(Object.keys(moved.image.sizes)).toEqual(['thumbnail', 'medium']);
    const gif = await createEvent(svc, { title: 'GIF', image: `${host.url}/anim.gif?v=1` });
    const gif2 = await createEvent(svc, { title: 'GIF again', image: `${host.url}/anim.gif?v=2` });
    expect([gif.image.url, gif2.image.url]).toEqual([`${UPLOADS}anim.gif`, `${UPLOADS}anim-1.gif`]);
    expect(gif2.image.sizes.thumbnail).toMatchObject({ url: `${UPLOADS}anim-1-150x100.gif`, 'mime-type': 'image/gif' });
  });

  it('keeps the image when an update does not send it, and removes it when it sends an empty value', async () => {
    const ev = await createEvent(svc, { title: 'Removable', image: String(photo.id) });
    expect((await svc.post(`/events/${ev.id}`, { title: 'Renamed' })).body.image.id).toBe(photo.id);
    const removed = await svc.post(`/events/${ev.id}`, { image: '' });
    expect([removed.status, removed.body.image]).toEqual([200, false]);
    expect((await svc.get(`/events/${ev.id}`)).body.json_ld.image).toBeUndefined();
  });

  it('sets images of inline venues and organizers, and of venues and organizers on their own routes', async () => {
    const ev = await createEvent(svc, {
      title: 'Inline',
      venue: { venue: 'Image hall', image: `${host.url}/other.png` },
      organizer: [{ organizer: 'Image org', image: String(photo.id) }],
    });
    expect(ev.venue.image.url).toMatch(/\/other\.png$/);
    expect(ev.organizer[0].image.url).toBe(photo.url);
    const venue = (await svc.get(`/venues/${ev.venue.id}`)).body;
    expect([venue.image.id, venue.json_ld.image]).toEqual([ev.venue.image.id, ev.venue.image.url]);
    const org = await svc.post('/organizers', { organizer: 'Own route org', image: String(photo.id) });
    expect([org.status, org.body.image.id]).toEqual([201, photo.id]);
    const cleared = await svc.post(`/organizers/${org.body.id}`, { image: '' });
    expect(cleared.body).not.toHaveProperty('image');
    const contributorVenue = await svc.post(
      '/venues',
      { venue: 'C venue', image: `${host.url}/other.png` },
      'contributor',
    );
    expect([contributorVenue.status, contributorVenue.body.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('shows images in list bodies of events, venues and organizers', async () => {
    const events = (await svc.get('/events', { query: { start_date: '2018-01-01', per_page: 50 } })).body.events;
    const inline = events.find((e: { title: string }) => e.title === 'Inline');
    expect([inline.image, inline.venue.image.width, inline.organizer[0].image.id]).toEqual([false, 640, photo.id]);
    expect(events.find((e: { title: string }) => e.title === 'With photo').image.id).toBe(photo.id);
    const venues = (await svc.get('/venues')).body.venues;
    expect(venues.find((v: { venue: string }) => v.venue === 'Image hall').image.width).toBe(640);
    const orgs = (await svc.get('/organizers')).body.organizers;
    expect(orgs.find((o: { organizer: string }) => o.organizer === 'Image org').image.id).toBe(photo.id);
  });

  it('imports a file for the operator with `events media add` and prints an id clients can use', async () => {
    const dir = join(svc.uploadsDir, '..', `cli-${factory.name}`);
    const file = join(dir, 'poster.png');
    mkdirSync(dir, { recursive: true });
    await sharp(images.other).toFile(file);
    const { stdout } = await run(process.execPath, [BIN, 'media', 'add', file, '--db', svc.dbUrl], {
      env: { ...process.env, EVENTS_UPLOADS_DIR: svc.uploadsDir, EVENTS_SITE_URL: 'http://wordpress.test' },
    });
    const [, id, url] = /^attachment (\d+)\t(\S+)$/m.exec(stdout)!;
    expect(url).toMatch(/^http:\/\/wordpress\.test\/wp-content\/uploads\/\d{4}\/\d{2}\/poster\.png$/);
    expect((await createEvent(svc, { title: 'CLI image', image: id! })).image.url).toBe(url);
    const served = await download(url!);
    expect([served.status, Buffer.from(await served.arrayBuffer()).equals(await readFile(file))]).toEqual([200, true]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.each(STORES)('media library with the default settings ($name)', (factory) => {
  let svc: Service;
  let host: Awaited<ReturnType<typeof startImageServer>>;
  beforeAll(async () => {
    host = await startImageServer(await makeImages());
    svc = await startService(factory);
  });
  afterAll(async () => {
    await svc.close();
    await host.close();
  });

  it('refuses loopback and private addresses without connecting to them', async () => {
    for (const image of [
      `${host.url}/photo.jpg`,
      `http://localhost:${new URL(host.url).port}/photo.jpg`,
      'http://10.0.0.1/photo.jpg',
      'http://169.254.169.254/latest',
      'http://[::1]/photo.jpg',
      'http://192.168.1.1:8080/a.png',
    ]) {
      const res = await svc.post('/events', {
        title: 'Private',
        start_date: '2018-01-12 10:00',
        end_date: '2018-01-12 11:00',
        image,
      });
      expect([image, res.status, res.body.code]).toEqual([image, 400, 'rest_invalid_param']);
    }
    expect(host.hits()).toBe(0);
    expect(await count(svc, 'posts')).toBe(0);
    expect(filesIn(svc.uploadsDir)).toEqual([]);
  });
});
