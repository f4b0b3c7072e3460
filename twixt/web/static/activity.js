// placeholder until the Activity bundle is built (web/activity)
