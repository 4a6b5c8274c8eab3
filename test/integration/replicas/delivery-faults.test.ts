import { deliveryFaultTests } from './delivery-faults-suite.js';

deliveryFaultTests('sqlite');
