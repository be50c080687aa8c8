import { describe, expect, it } from 'vitest';
import { exampleReport } from './exampleReport.testdata';
import { renderReportMarkdown } from './reportMarkdown';

describe('decoding accuracy in report.md', () => {
  it('prints the error and the within-10 share in the unit the data name', () => {
    const r = exampleReport();
    r.strategies[0]!.accuracy = { rows: 100, medianAbsError: 30.04, shareWithin10: 0.18, units: 'cm' };
    r.strategies[1]!.accuracy = { rows: 100, medianAbsError: 40.62626262626262, shareWithin10: 0.11, units: 'cm' };
    const md = renderReportMarkdown(r);
    const start = md.indexOf('## Decoding accuracy\n');
    expect(start).toBeGreaterThan(md.indexOf('## Numerical agreement\n'));
    expect(start).toBeLessThan(md.indexOf('## Memory\n'));
    expect(md).toContain('| reference | 100 | 30 cm | 18.0 % within 10 cm |');
    expect(md).toContain('| compensated | 100 | 40.6 cm | 11.0 % within 10 cm |');
    expect(md).not.toContain('own units');
  });

  it('says the data name no unit instead of printing a bare number', () => {
    const r = exampleReport();
    r.strategies[0]!.accuracy = { rows: 100, medianAbsError: 40.62626262626262, shareWithin10: 0.11 };
    const md = renderReportMarkdown(r);
    expect(md).toContain('| reference | 100 | 40.6 position units | 11.0 % within 10 position units |');
    expect(md).toContain('The data name no unit for positions');
  });

  it('has no section when no strategy was judged against the true position', () => {
    expect(renderReportMarkdown(exampleReport())).not.toContain('## Decoding accuracy');
  });
});
