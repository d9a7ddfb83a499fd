import { creditsPerHour, vmType } from '../pricing/vm-types.js';

/**
 * What an instance-minute costs. Credits measure compute (1 credit = 1 core-hour; a GPU counts as
 * 10 cores); the Cumulus cost is credits at the organization's credit value; the approximate
 * cloud cost is the instance type's list price, or for local instances a rate per core and GiB.
 * All in millionths (micro-credits, micro-dollars): integers, never floats, once summed.
 */
export interface Rates {
  /** Local instances: dollars per core-hour and per GiB-hour. */
  localCoreHourUsd: number;
  localGibHourUsd: number;
}

/** One minute of an instance, in micro-credits and micro-dollars. */
export function minutePrice(
  machine: { instanceType: string; cores: number; memoryMib: number; gpus: number },
  rates: Rates,
  creditValueMicroUsd: number,
): { microCredits: number; microCloudCost: number; microCumulusCost: number } {
  const microCredits = Math.round((creditsPerHour(machine) * 1e6) / 60);
  const listed = vmType(machine.instanceType);
  const hourly = listed
    ? listed.hourlyUsd
    : machine.cores * rates.localCoreHourUsd + (machine.memoryMib / 1024) * rates.localGibHourUsd;
  return {
    microCredits,
    microCloudCost: Math.round((hourly * 1e6) / 60),
    microCumulusCost: Math.round((microCredits * creditValueMicroUsd) / 1e6),
  };
}
