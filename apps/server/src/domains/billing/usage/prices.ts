import { creditsPerHour, vmType } from '../../../compute/vm-types.js';

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

export interface HourlyPrice {
  microCredits: number;
  microCloudCost: number;
  microCumulusCost: number;
}

/** An instance's price per hour, in whole millionths. */
export function hourlyPrice(
  machine: { instanceType: string; cores: number; memoryMib: number; gpus: number },
  rates: Rates,
  creditValueMicroUsd: number,
): HourlyPrice {
  const microCredits = Math.round(creditsPerHour(machine) * 1e6);
  const listed = vmType(machine.instanceType);
  // GPUs attached to a type that has none of its own (Compute Engine's N1) add their price.
  const attached = listed?.attachable
    ? Math.max(0, machine.gpus - listed.gpus) * listed.attachable.hourlyUsd
    : 0;
  const hourlyUsd = listed
    ? listed.hourlyUsd + attached
    : machine.cores * rates.localCoreHourUsd + (machine.memoryMib / 1024) * rates.localGibHourUsd;
  // Credits × dollars per credit, both in millionths: exact in BigInt, rounded half up once.
  const cumulus = (BigInt(microCredits) * BigInt(creditValueMicroUsd) + 500_000n) / 1_000_000n;
  return {
    microCredits,
    microCloudCost: Math.round(hourlyUsd * 1e6),
    microCumulusCost: Number(cumulus),
  };
}

/**
 * The share of an hourly amount that minute `index` (0-59 within its hour) gets: the running
 * total rounded down at each minute's end, so any 60 consecutive minutes add up to the hourly
 * amount exactly (a 4-core hour is 4 credits, not 60 rounded sixtieths) and no minute is off by
 * more than one millionth.
 */
const share = (hourly: number, index: number) =>
  Math.floor((hourly * (index + 1)) / 60) - Math.floor((hourly * index) / 60);

/** One minute of an instance (minute `index` of its hour), in micro-credits and micro-dollars. */
export function minutePrice(hourly: HourlyPrice, index: number): HourlyPrice {
  return {
    microCredits: share(hourly.microCredits, index),
    microCloudCost: share(hourly.microCloudCost, index),
    microCumulusCost: share(hourly.microCumulusCost, index),
  };
}
