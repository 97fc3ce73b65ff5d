/** The capstone's harness: replicas of the StaticSite operator (notebook 10), crashable for failover drills. */
export * from "./replica.js";
