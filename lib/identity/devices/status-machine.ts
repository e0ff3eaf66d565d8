/**
 * A registered device's status (spec 5.3): ACTIVE from its registration until the customer
 * deactivates it. Deactivation is idempotent (a second one answers DEACTIVATED and changes
 * nothing); a deactivated device never becomes active again: the customer registers a new one.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { DEVICE_STATUSES, type DeviceStatus } from "./status";

export const DEVICE_TRIGGERS = ["register", "deactivate"] as const;
export type DeviceTrigger = (typeof DEVICE_TRIGGERS)[number];

export const deviceMachine = defineMachine<DeviceStatus, DeviceTrigger>({
  name: "device",
  states: DEVICE_STATUSES,
  triggers: DEVICE_TRIGGERS,
  // Only a registration of an existing row is refused, which no caller does: a registration is always a new row.
  refusedCode: "device.deactivated",
  transitions: [
    { from: [NONE], trigger: "register", to: "ACTIVE", notes: "the registration's signature verified" },
    { from: ["ACTIVE"], trigger: "deactivate", to: "DEACTIVATED", notes: "the customer deactivates it" },
    { from: ["DEACTIVATED"], trigger: "deactivate", to: "unchanged" },
  ],
});
