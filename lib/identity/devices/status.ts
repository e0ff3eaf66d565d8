/** A registered device's status (spec 5.3): only an ACTIVE device may confirm transfers. */
export const DEVICE_STATUSES = ["ACTIVE", "DEACTIVATED"] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
