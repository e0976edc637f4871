/**
 * Attaching an image: the bytes decide, a file that is no image is refused in words and changes nothing, and an
 * image over the protocol's limit is said before Send. Only the transport is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from './Composer';
import { useAppStore } from '../../store';
import { resetGateway } from '../../test/fake-gateway';
import { sniffImage } from './image-file';

type Body = Record<string, unknown>;
const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
});
afterEach(cleanup);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
async function attach(bytes: Uint8Array<ArrayBuffer>, name: string, type: string) {
  const file = new File([bytes], name, { type });
  await act(async () => {
    fireEvent.change(document.querySelector('input[type=file]')!, { target: { files: [file] } });
    await new Promise((r) => setTimeout(r, 20));
  });
}
const body = () => useAppStore.getState().composers.messages.body;

describe('an image that cannot be shown', () => {
  it('(damaged data from a preset, curl or History) is a chip that says so, inside its box, not a broken thumbnail', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoHBwcH' } };
    useAppStore.getState().composerBodyEdited('messages', {
      model: 'm',
      max_tokens: 16,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] }],
    });
    render(<Composer protocol="messages" />);
    fireEvent.error(screen.getByRole('img', { name: 'Turn 1 image 1' }));
    const chip = screen.getByRole('img', { name: "Turn 1 image 1: can't be shown" });
    expect(chip.tagName).toBe('SPAN');
    expect(chip.textContent).toBe("Image can't be shown");
    expect(document.querySelector('.turn-images img')).toBeNull();
  });
});

describe('Attach image', () => {
  it('refuses a text file named .png, in a sentence, and the conversation stays as it was', async () => {
    render(<Composer protocol="messages" />);
    const before = body();
    await attach(new TextEncoder().encode('just some text, not a picture'), 'fake.png', 'image/png');
    expect(screen.getByRole('alert').textContent).toBe(
      'fake.png: This file is not a PNG, JPEG, GIF or WebP image, so it was not attached.',
    );
    expect(body()).toBe(before);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('takes the type from the bytes, not from the name: a JPEG named .png goes out as image/jpeg', async () => {
    render(<Composer protocol="messages" />);
    await attach(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'photo.png', 'image/png');
    const last = (body().messages as Body[]).at(-1)!;
    expect(((last.content as Body[]).at(-1)!.source as Body).media_type).toBe('image/jpeg');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('flags an image over Messages’ 5 MB per image before anything is sent', async () => {
    render(<Composer protocol="messages" />);
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    await attach(big, 'big.png', 'image/png');
    expect(screen.getByLabelText('Image size').textContent).toMatch(
      /^An image is over 5\.0 MB \(6\.0 MB\): Messages takes at most 5\.0 MB per image/,
    );
  });

  it('knows the four signatures and nothing else', () => {
    const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
    expect(sniffImage(new Uint8Array(PNG))).toBe('image/png');
    expect(sniffImage(new Uint8Array(ascii('GIF89a')))).toBe('image/gif');
    expect(sniffImage(new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBP')]))).toBe('image/webp');
    expect(sniffImage(new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')]))).toBeUndefined();
    expect(sniffImage(new Uint8Array(ascii('<svg')))).toBeUndefined();
  });
});
