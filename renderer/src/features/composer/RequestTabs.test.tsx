/**
 * The tab list "Requests" by keyboard: arrows move the selection (roving tabindex), Delete closes with an undo bar,
 * F2 renames in place, and the "⋯" menu duplicates.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { useAppStore } from '../../store';
import { RequestTabs } from './RequestTabs';

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  useAppStore.getState().requestOpened('chat');
  useAppStore.getState().requestOpened('chat');
});
afterEach(cleanup);

const list = () => screen.getByRole('tablist', { name: 'Requests' });
const tabNames = () =>
  within(list())
    .getAllByRole('tab')
    .map((t) => t.textContent);
const selected = () => within(list()).getByRole('tab', { selected: true });

describe('the Requests tab list', () => {
  it('arrows move the selection and the focus; only the selected tab is in the Tab order', () => {
    render(<RequestTabs protocol="chat" />);
    expect(selected().textContent).toBe('Request 3');
    fireEvent.keyDown(selected(), { key: 'ArrowRight' });
    expect(selected().textContent).toBe('Request 1');
    expect(document.activeElement).toBe(selected());
    expect(
      within(list())
        .getAllByRole('tab')
        .filter((t) => t.tabIndex === 0),
    ).toHaveLength(1);
  });

  it('Delete closes the request on view and offers to reopen it', () => {
    render(<RequestTabs protocol="chat" />);
    fireEvent.keyDown(selected(), { key: 'Delete' });
    expect(tabNames()).toEqual(['Request 1', 'Request 2']);
    const bar = screen.getByRole('status', { name: 'Closed request' });
    expect(bar.textContent).toContain('Closed “Request 3”.');
    fireEvent.click(within(bar).getByRole('button', { name: 'Reopen closed request' }));
    expect(tabNames()).toEqual(['Request 1', 'Request 2', 'Request 3']);
    expect(screen.queryByRole('status', { name: 'Closed request' })).toBeNull();
  });

  it('F2 renames in place; the menu duplicates as "<name> copy", right after it', () => {
    render(<RequestTabs protocol="chat" />);
    fireEvent.keyDown(selected(), { key: 'F2' });
    const field = screen.getByRole('textbox', { name: 'Request name' });
    fireEvent.change(field, { target: { value: 'Weather' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(tabNames()).toEqual(['Request 1', 'Request 2', 'Weather']);
    fireEvent.click(screen.getByRole('button', { name: 'Request actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Duplicate' }));
    expect(tabNames()).toEqual(['Request 1', 'Request 2', 'Weather', 'Weather copy']);
    expect(selected().textContent).toBe('Weather copy');
  });
});
