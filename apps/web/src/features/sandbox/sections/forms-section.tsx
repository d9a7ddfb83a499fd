import * as React from 'react';

import { FormField } from '@/components/form-field';
import { PageSection } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

// The workspace-name rule, as a page would write it.
function workspaceNameError(name: string): string | undefined {
  if (!name) return 'Workspace name is required';
  if (name.length < 4) return 'Must be at least 4 characters';
  if (name.length >= 34) return 'Must be less than 34 characters';
  return undefined;
}

export function FormsSection() {
  const [name, setName] = React.useState('ml');
  const [region, setRegion] = React.useState('us-east-1');
  const [notes, setNotes] = React.useState('');
  const [spot, setSpot] = React.useState(true);
  const [academic, setAcademic] = React.useState(false);
  const [scheme, setScheme] = React.useState('pretty');
  const nameError = workspaceNameError(name);

  return (
    <PageSection
      id="forms"
      title="Forms"
      description="FormField ties the label and error messages to any control."
    >
      <form
        className="bg-card grid gap-6 rounded-xl border p-6 md:grid-cols-2"
        onSubmit={(event) => event.preventDefault()}
      >
        <FormField label="Workspace name" error={nameError} description="Unique, 4 to 34 characters.">
          <Input value={name} onChange={(event) => setName(event.target.value)} placeholder="data-science" />
        </FormField>
        <FormField label="Work email" error={['Invalid email', 'A user with that email already exists.']}>
          <Input type="email" defaultValue="ada@" />
        </FormField>
        <FormField label="Username or Email" description="We look the user up by either.">
          <Input placeholder="ada@example.com" />
        </FormField>
        <div className="grid gap-2">
          <Label htmlFor="region-select">Default region</Label>
          <Select value={region} onValueChange={setRegion}>
            <SelectTrigger id="region-select" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {['us-east-1', 'us-west-2', 'eu-central-1', 'europe-west4'].map((value) => (
                <SelectItem key={value} value={value}>
                  {value}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <FormField label="How did you hear about us?" className="md:col-span-2">
          <Textarea
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            placeholder="A colleague, a talk..."
          />
        </FormField>
        <div className="flex items-center gap-3">
          <Switch id="spot" checked={spot} onCheckedChange={setSpot} />
          <Label htmlFor="spot">Use spot instances</Label>
        </div>
        <div className="flex items-center gap-3">
          <Checkbox
            id="academic"
            checked={academic}
            onCheckedChange={(value) => setAcademic(value === true)}
          />
          <Label htmlFor="academic">Academic use</Label>
        </div>
        <div className="grid gap-3">
          <Label>Chart Color Scheme</Label>
          <RadioGroup value={scheme} onValueChange={setScheme} className="flex gap-6">
            <div className="flex items-center gap-2">
              <RadioGroupItem id="scheme-pretty" value="pretty" />
              <Label htmlFor="scheme-pretty" className="font-normal">
                Pretty
              </Label>
            </div>
            <div className="flex items-center gap-2">
              <RadioGroupItem id="scheme-contrast" value="high-contrast" />
              <Label htmlFor="scheme-contrast" className="font-normal">
                High Contrast
              </Label>
            </div>
          </RadioGroup>
        </div>
        <div className="flex items-end justify-end gap-2">
          <Button type="button" variant="outline">
            Cancel
          </Button>
          {nameError ? (
            <Tooltip>
              <TooltipTrigger asChild>
                {/* A disabled button gets no pointer or focus events, so the tooltip hangs on a focusable wrapper. */}
                {/* biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to reach the tooltip. */}
                <span tabIndex={0}>
                  <Button type="submit" disabled>
                    Save
                  </Button>
                </span>
              </TooltipTrigger>
              <TooltipContent>To submit, fill out all required fields</TooltipContent>
            </Tooltip>
          ) : (
            <Button type="submit">Save</Button>
          )}
        </div>
      </form>
    </PageSection>
  );
}
