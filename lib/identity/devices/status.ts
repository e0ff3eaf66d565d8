/**
 * A registered device's status (spec 5.3): only an ACTIVE device may confirm transfers. Declared
 * beside its column in db/schema/devices.ts.
 */
export { DEVICE_STATUSES, type DeviceStatus } from "@/db/schema/devices";
