import { fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  readSidebarCookie,
  Sidebar,
  SidebarContent,
  SidebarInset,
  SidebarProvider,
  SidebarTrigger,
} from '@/components/ui/sidebar';

function renderSidebar(defaultOpen = true) {
  const view = render(
    <SidebarProvider defaultOpen={defaultOpen}>
      <Sidebar collapsible="icon">
        <SidebarContent>Entries</SidebarContent>
      </Sidebar>
      <SidebarInset>
        <SidebarTrigger />
      </SidebarInset>
    </SidebarProvider>,
  );
  const sidebar = () => view.container.querySelector('[data-slot=sidebar]');
  return { ...view, sidebar };
}

describe('Sidebar', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('uses the spec widths', () => {
    const { container } = renderSidebar();
    const wrapper = container.querySelector<HTMLElement>('[data-slot=sidebar-wrapper]');

    expect(wrapper?.style.getPropertyValue('--sidebar-width')).toBe('13rem');
    expect(wrapper?.style.getPropertyValue('--sidebar-width-icon')).toBe('3rem');
  });

  it('toggles with Ctrl+B and Cmd+B and keeps the state in a 7-day cookie', () => {
    const setCookie = vi.spyOn(Document.prototype, 'cookie', 'set');
    const { sidebar } = renderSidebar();
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(sidebar()).toHaveAttribute('data-state', 'collapsed');
    expect(sidebar()).toHaveAttribute('data-collapsible', 'icon');
    expect(setCookie).toHaveBeenLastCalledWith('sidebar_state=false; path=/; max-age=604800');

    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
    expect(setCookie).toHaveBeenLastCalledWith('sidebar_state=true; path=/; max-age=604800');
  });

  it('ignores B without a modifier', () => {
    const { sidebar } = renderSidebar();

    fireEvent.keyDown(window, { key: 'b' });
    expect(sidebar()).toHaveAttribute('data-state', 'expanded');
  });

  it('reads its last state back from the cookie', () => {
    expect(readSidebarCookie('')).toBe(true);
    expect(readSidebarCookie('csrftoken=abc; sidebar_state=false')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true; other=1')).toBe(true);
  });
});
