import { normalise } from './normalise.js';

/**
 * What the reference data covers (issue 28, item 8; docs/adr/0036): Ghana. A
 * query naming a well-known place elsewhere ("Lagos", "Abidjan", "Lomé")
 * would otherwise be answered, silently, with a Ghanaian village of the same
 * name; search and resolve say so instead. The list is short on purpose: the
 * cities and capitals of the region and the continent an integrator is likely
 * to try, not a world gazetteer (the service has none to match against).
 */
export const COVERED_COUNTRIES: readonly string[] = ['GH'];

const COUNTRIES: Record<string, string> = {
  NG: 'Nigeria', CI: "Côte d'Ivoire", TG: 'Togo', BJ: 'Benin', BF: 'Burkina Faso', NE: 'Niger', ML: 'Mali', SN: 'Senegal', GN: 'Guinea',
  SL: 'Sierra Leone', LR: 'Liberia', GM: 'The Gambia', GW: 'Guinea-Bissau', MR: 'Mauritania', CV: 'Cabo Verde', CM: 'Cameroon',
  KE: 'Kenya', UG: 'Uganda', TZ: 'Tanzania', ET: 'Ethiopia', CD: 'DR Congo', AO: 'Angola', ZA: 'South Africa', EG: 'Egypt', MA: 'Morocco', RW: 'Rwanda',
  GB: 'United Kingdom', FR: 'France', US: 'United States',
};

const ELSEWHERE: ReadonlyArray<[string, string]> = [
  ['Lagos', 'NG'], ['Abuja', 'NG'], ['Kano', 'NG'], ['Ibadan', 'NG'], ['Port Harcourt', 'NG'], ['Benin City', 'NG'], ['Kaduna', 'NG'], ['Enugu', 'NG'],
  ['Abidjan', 'CI'], ['Yamoussoukro', 'CI'], ['Bouaké', 'CI'], ['San-Pédro', 'CI'],
  ['Lomé', 'TG'], ['Sokodé', 'TG'], ['Kpalimé', 'TG'],
  ['Cotonou', 'BJ'], ['Porto-Novo', 'BJ'], ['Parakou', 'BJ'],
  ['Ouagadougou', 'BF'], ['Bobo-Dioulasso', 'BF'], ['Niamey', 'NE'], ['Bamako', 'ML'], ['Dakar', 'SN'], ['Conakry', 'GN'],
  ['Freetown', 'SL'], ['Monrovia', 'LR'], ['Banjul', 'GM'], ['Bissau', 'GW'], ['Nouakchott', 'MR'], ['Praia', 'CV'], ['Douala', 'CM'], ['Yaoundé', 'CM'],
  ['Nairobi', 'KE'], ['Kampala', 'UG'], ['Dar es Salaam', 'TZ'], ['Addis Ababa', 'ET'], ['Kinshasa', 'CD'], ['Luanda', 'AO'], ['Kigali', 'RW'],
  ['Johannesburg', 'ZA'], ['Cape Town', 'ZA'], ['Cairo', 'EG'], ['Casablanca', 'MA'],
  ['London', 'GB'], ['Paris', 'FR'], ['New York', 'US'],
];

const BY_NAME = new Map(ELSEWHERE.map(([name, country]) => [normalise(name), { name, country }]));
/** Words a query may add to the place's name without naming something else ("Lagos, Nigeria", "Abidjan CI"). */
const COUNTRY_WORDS = new Set(
  [...Object.keys(COUNTRIES), ...Object.values(COUNTRIES), 'Ivory Coast', 'Cote dIvoire', 'state', 'city']
    .flatMap((name) => normalise(name).split(' '))
    .filter((word) => word.length > 0),
);

export interface OutsideCoverage {
  name: string;
  country: string;
  country_name: string;
  note: string;
}

/** The place outside coverage the query names, when it names one (its whole text, country words aside). */
export function outsideCoverage(query: string): OutsideCoverage | null {
  const words = normalise(query).split(' ').filter(Boolean);
  for (let end = words.length; end > 0; end--) {
    const found = BY_NAME.get(words.slice(0, end).join(' '));
    if (!found) continue;
    if (!words.slice(end).every((word) => COUNTRY_WORDS.has(word))) return null;
    const country_name = COUNTRIES[found.country];
    return {
      name: found.name,
      country: found.country,
      country_name,
      note: `${found.name} (${country_name}) is outside the data this service covers, which is Ghana only; any results are places in Ghana with the same or a similar name.`,
    };
  }
  return null;
}
