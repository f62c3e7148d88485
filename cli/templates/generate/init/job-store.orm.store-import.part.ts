import { ContextRoutedJobStore } from "@kit/jobs";
