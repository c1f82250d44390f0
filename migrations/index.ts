import dataModel from "./0001_data_model.ts"
import analyticsIndexes from "./0002_analytics_indexes.ts"
import analyticsRollups from "./0003_analytics_rollups.ts"
import collector from "./0004_collector.ts"
import analyticsTagPairs from "./0005_analytics_tag_pairs.ts"
import analyticsSerialized from "./0006_analytics_serialized.ts"
import brandAnalytics from "./0007_brand_analytics.ts"
import analyticsPending from "./0008_analytics_pending.ts"
import authChanges from "./0009_auth_changes.ts"
import simulatedMonitors from "./0011_simulated_monitors.ts"
import answerDetails from "./0012_answer_details.ts"
import citationProject from "./0014_citation_project.ts"
import brandSuggestions from "./0015_brand_suggestions.ts"
import webhooks from "./0016_webhooks.ts"

/**
 * Every migration, by `NNNN_name`. Imported statically rather than found on disk at run time, so the
 * same list runs under tsx, vitest and a bundle. A new migration is a new file and a new line here.
 */
export const migrations = {
  "0001_data_model": dataModel,
  "0002_analytics_indexes": analyticsIndexes,
  "0003_analytics_rollups": analyticsRollups,
  "0004_collector": collector,
  "0005_analytics_tag_pairs": analyticsTagPairs,
  "0006_analytics_serialized": analyticsSerialized,
  "0007_brand_analytics": brandAnalytics,
  "0008_analytics_pending": analyticsPending,
  "0009_auth_changes": authChanges,
  "0011_simulated_monitors": simulatedMonitors,
  "0012_answer_details": answerDetails,
  "0014_citation_project": citationProject,
  "0015_brand_suggestions": brandSuggestions,
  "0016_webhooks": webhooks
}
