import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';

describe('FormField', () => {
  it('ties the label and description to the control', () => {
    render(
      <FormField label="Workspace name" description="Unique, 4 to 34 characters.">
        <Input />
      </FormField>,
    );

    const input = screen.getByLabelText('Workspace name');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveAccessibleDescription('Unique, 4 to 34 characters.');
  });

  it('marks the control invalid and lists every server message', () => {
    render(
      <FormField label="Username" description="hidden while invalid" error={['Too long', 'Already taken']}>
        <Input />
      </FormField>,
    );

    const input = screen.getByLabelText('Username');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Too long Already taken');
    expect(screen.queryByText('hidden while invalid')).not.toBeInTheDocument();
  });
});
