import { type ChartColorScheme, useChartColorScheme } from '@/lib/preferences';

/** Series colors of each Chart Color Scheme, in order; a chart with more series cycles them. */
export const CHART_PALETTES: Record<ChartColorScheme, readonly string[]> = {
  pretty: [
    'var(--chart-1)',
    'var(--chart-2)',
    'var(--chart-3)',
    'var(--chart-4)',
    'var(--chart-5)',
    'oklch(0.78 0.11 195)',
    'oklch(0.74 0.14 330)',
    'oklch(0.8 0.12 120)',
  ],
  // Okabe-Ito and IBM colour-blind-safe hues, bright on the dark theme.
  'high-contrast': ['#ffffff', '#ffb000', '#dc267f', '#648fff', '#00c853', '#fe6100', '#56b4e9', '#f0e442'],
};

/** The color of the `index`th series in the user's Chart Color Scheme. */
export function useChartColors(): (index: number) => string {
  const palette = CHART_PALETTES[useChartColorScheme()];
  return (index) => palette[index % palette.length] as string;
}
